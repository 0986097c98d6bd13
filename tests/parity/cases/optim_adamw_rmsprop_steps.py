# AdamW, Adam with amsgrad and weight decay, RMSprop (plain, centered with
# momentum): a few steps on a fixed quadratic, with the state they keep.
import torch

c = torch.tensor([0.5, -1.0, 2.0])


def run(make, steps=4):
    p = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = make([p])
    trace = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((p - c) ** 2).sum() + p[0] * p[1]
        loss.backward()
        opt.step()
        trace.append(p.detach().clone())
    state = opt.state[p]
    return {"trace": trace, "state keys": sorted(state.keys()),
            "state": dict(state), "version": p._version}


ADAMW_DEFAULTS = torch.optim.AdamW([torch.ones(1, requires_grad=True)]).defaults
RESULT = {
    "AdamW": run(lambda ps: torch.optim.AdamW(ps, lr=0.1)),
    "Adam amsgrad wd": run(lambda ps: torch.optim.Adam(ps, lr=0.05, amsgrad=True, weight_decay=0.1)),
    "RMSprop": run(lambda ps: torch.optim.RMSprop(ps, lr=0.01)),
    "RMSprop centered momentum": run(lambda ps: torch.optim.RMSprop(ps, lr=0.01, momentum=0.9,
                                                                    centered=True)),
    "SGD nesterov maximize": run(lambda ps: torch.optim.SGD(ps, lr=0.01, momentum=0.5, nesterov=True,
                                                            maximize=True)),
    "AdamW defaults": {k: v for k, v in ADAMW_DEFAULTS.items()
                       if k in ("lr", "betas", "eps", "weight_decay", "amsgrad")},
    "empty parameter list": catch(lambda: torch.optim.Adam([])),
    "non-leaf": catch(lambda: torch.optim.RMSprop([torch.ones(2, requires_grad=True) * 2])),
}
TOL = {"rtol": 1e-4, "atol": 1e-6}
