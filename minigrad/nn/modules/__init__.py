"""The layers of ``minigrad.nn``: every class here is also available as ``minigrad.nn.<Name>``."""

from .activation import (
    ELU,
    GELU,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .activation_extra import *  # noqa: F403 - ReLU6, SELU, CELU, PReLU, Hardswish, Mish, GLU, RReLU...
from .activation_extra import __all__ as _activation_extra_all
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv2d, ConvTranspose2d
from .conv1d import Conv1d  # nn3
from .distance import CosineSimilarity
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from .flatten import Flatten, Unflatten
from .groupnorm import GroupNorm  # nn3
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, RMSNorm  # nn2
from .linear import Bilinear, Identity, LazyLinear, Linear, UninitializedParameter
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .loss_extra import *  # noqa: F403 - KLDivLoss, MarginRankingLoss, CosineEmbeddingLoss, PoissonNLLLoss...
from .loss_extra import __all__ as _loss_extra_all
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm
from .padding import (  # nn2: padding layers
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .paramcontainers import ParameterDict, ParameterList  # nn3
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .pooling1d import AdaptiveAvgPool1d, AvgPool1d, MaxPool1d  # nn2
from .pooling_adaptive_max import AdaptiveMaxPool1d, AdaptiveMaxPool2d  # nn4
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase  # nn2: recurrent layers
from .sparse import Embedding
from .transformer import *  # noqa: F403 - nn4: MultiheadAttention, Transformer, TransformerEncoderLayer...
from .transformer import __all__ as _transformer_all
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # nn4

__all__ = [
    "Module",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "Identity",
    "Linear",
    "Bilinear",
    "Conv2d",
    "MaxPool2d",
    "AvgPool2d",
    "Flatten",
    "Unflatten",
    "Dropout",
    "LazyLinear",
    "ConvTranspose2d",
    "UninitializedParameter",
    "BatchNorm2d",
    "BatchNorm3d",
    "AdaptiveAvgPool2d",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "LayerNorm",
    "BatchNorm1d",
    "Embedding",
    "CosineSimilarity",
    "ReLU",
    "LeakyReLU",
    "Hardtanh",
    "Tanh",
    "Sigmoid",
    "LogSigmoid",
    "GELU",
    "SiLU",
    "ELU",
    "Softplus",
    "Softmax",
    "LogSoftmax",
    "MSELoss",
    "L1Loss",
    "SmoothL1Loss",
    "HuberLoss",
    "CrossEntropyLoss",
    "NLLLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    # nn2: recurrent layers
    "RNNBase",
    "RNN",
    "LSTM",
    "GRU",
    "RNNCellBase",
    "RNNCell",
    "LSTMCell",
    "GRUCell",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "MaxPool1d",
    "AvgPool1d",
    "AdaptiveAvgPool1d",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "RMSNorm",
    "ParameterList",  # nn3
    "ParameterDict",
    "GroupNorm",
    "Conv1d",
    *_activation_extra_all,
    *_loss_extra_all,
    *_transformer_all,  # nn4
    "Upsample",
    "UpsamplingNearest2d",
    "UpsamplingBilinear2d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
]
