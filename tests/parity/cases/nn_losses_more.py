# The other losses: L1, NLL with class weights and ignore_index, cross-entropy
# with label smoothing and with class probabilities, weighted BCE.
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = [[2.0, 1.0, 0.1, -1.0], [0.5, -0.5, 1.5, 2.5], [0.0, 3.0, 0.0, 0.0]]
classes = torch.tensor([0, 3, -100])
probs = torch.tensor([[0.7, 0.1, 0.1, 0.1], [0.0, 0.5, 0.5, 0.0], [0.25, 0.25, 0.25, 0.25]])
weight = torch.tensor([1.0, 2.0, 0.5, 3.0])


def run(fn):
    x = torch.tensor(logits, requires_grad=True)
    loss = fn(x)
    loss.backward(torch.ones_like(loss))
    return {"loss": loss, "grad": x.grad}


RESULT = {
    "l1 mean": run(lambda x: F.l1_loss(x, torch.zeros(3, 4))),
    "l1 none": run(lambda x: nn.L1Loss(reduction="none")(x, torch.ones(3, 4))),
    "nll weight ignore": run(lambda x: F.nll_loss(F.log_softmax(x, 1), classes, weight=weight)),
    "nll sum": run(lambda x: nn.NLLLoss(reduction="sum")(x, torch.tensor([1, 2, 3]))),
    "ce smoothing": run(lambda x: F.cross_entropy(x, classes, label_smoothing=0.1)),
    "ce smoothing none": run(lambda x: F.cross_entropy(x, classes, label_smoothing=0.2, reduction="none")),
    "ce probabilities": run(lambda x: F.cross_entropy(x, probs)),
    "ce probabilities weight sum": run(lambda x: F.cross_entropy(x, probs, weight=weight, reduction="sum")),
    "ce weight module": run(lambda x: nn.CrossEntropyLoss(weight=weight)(x, torch.tensor([0, 3, 1]))),
    "bce weight": run(lambda x: F.binary_cross_entropy(torch.sigmoid(x), probs, weight=weight)),
    "bce logits pos_weight none": run(
        lambda x: F.binary_cross_entropy_with_logits(x, probs, pos_weight=weight, reduction="none")),
    "float targets of another shape": catch(lambda: F.cross_entropy(torch.zeros(3, 4), torch.zeros(3))),
    "int32 targets": catch(lambda: F.cross_entropy(torch.zeros(3, 4),
                                                   torch.tensor([0, 1, 2], dtype=torch.int32))),
    "bce target size": catch(lambda: F.binary_cross_entropy(torch.full((3, 1), 0.5), torch.ones(3))),
    "bce logits target size": catch(lambda: F.binary_cross_entropy_with_logits(torch.zeros(3, 1),
                                                                               torch.ones(3))),
}
