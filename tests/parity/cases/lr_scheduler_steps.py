# StepLR and ExponentialLR: learning rates over epochs, for two parameter groups.
import torch


def schedule(make, epochs=6):
    a = torch.ones(1, requires_grad=True)
    b = torch.ones(1, requires_grad=True)
    opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1, momentum=0.9)
    scheduler = make(opt)
    lrs = [scheduler.get_last_lr()]
    for _ in range(epochs):
        opt.step()
        scheduler.step()
        lrs.append(scheduler.get_last_lr())
    initial = [g["initial_lr"] for g in opt.param_groups]
    return {"lrs": lrs, "last_epoch": scheduler.last_epoch, "initial_lr": initial}


RESULT = {
    "StepLR": schedule(lambda opt: torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)),
    "ExponentialLR": schedule(lambda opt: torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)),
}
