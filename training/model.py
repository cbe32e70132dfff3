"""A BERT cross-encoder in plain torch: embeddings, encoder layers, pooler, one-logit head.

Hand-written instead of taken from ``transformers``: the weights come out of ONNX
initializers, not a checkpoint ``transformers`` could load, so its loading code would not
help, and a BERT layer is a few dozen lines. This one matches the fp32 twin of the shipped
graph to 1e-5 (training/BASE.md). The module names follow Hugging Face's
``BertForSequenceClassification``, so its state dicts load either way.

``set_simulate_int8(on=True)`` quantises every matmul input per tensor to uint8, as the
shipped graph's ``DynamicQuantizeLinear`` does: the torch model then lands as close to the
INT8 graph as onnxruntime does to itself with other graph fusions (INT8 rounding is
chaotic, so no closer). Training and export run with it off (fp32).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class BertConfig:
    """Shape of a BERT encoder; the defaults are MiniLM-L12-H384 (ms-marco-MiniLM-L-12-v2)."""

    vocab_size: int = 30522
    hidden: int = 384
    layers: int = 12
    heads: int = 12
    intermediate: int = 1536
    max_positions: int = 512
    type_vocab: int = 2
    eps: float = 1e-12
    labels: int = 1


def dynamic_uint8(x: torch.Tensor) -> torch.Tensor:
    """``x`` after onnxruntime's ``DynamicQuantizeLinear`` and back (one scale per tensor).

    The range always holds zero; rounding is half to even, as the operator specifies.
    Gradients pass straight through, so a quantisation-aware fine-tune could use it too.
    """
    low = torch.clamp(x.detach().min(), max=0.0)
    high = torch.clamp(x.detach().max(), min=0.0)
    scale = (high - low) / 255.0
    if float(scale) == 0.0:
        return x
    zero = torch.clamp(torch.round(-low / scale), 0, 255)
    q = torch.clamp(torch.round(x.detach() / scale) + zero, 0, 255)
    return x + ((q - zero) * scale - x).detach()


class Linear(nn.Linear):
    """``nn.Linear`` whose input is optionally quantised like onnxruntime's INT8 graph."""

    simulate_int8: bool = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(dynamic_uint8(x) if self.simulate_int8 else x)


class Embeddings(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden)
        self.position_embeddings = nn.Embedding(config.max_positions, config.hidden)
        self.token_type_embeddings = nn.Embedding(config.type_vocab, config.hidden)
        self.LayerNorm = nn.LayerNorm(config.hidden, eps=config.eps)

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        summed = (self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
                  + self.position_embeddings(positions)[None])
        return self.LayerNorm(summed)


class SelfAttention(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.heads = config.heads
        self.size = config.hidden // config.heads  # an int, so export keeps it a constant
        self.query = Linear(config.hidden, config.hidden)
        self.key = Linear(config.hidden, config.hidden)
        self.value = Linear(config.hidden, config.hidden)
        self.dropout = nn.Dropout(0.1)  # on the attention probabilities, as BERT trains

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> torch.Tensor:
        batch, length, hidden = x.shape

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(batch, length, self.heads, self.size).transpose(1, 2)

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.size) + mask_bias
        context = self.dropout(F.softmax(scores, dim=-1)) @ v
        return context.transpose(1, 2).reshape(batch, length, hidden)


class DenseNorm(nn.Module):
    """A projection whose output is added to the residual and normalised."""

    def __init__(self, config: BertConfig, *, inputs: int) -> None:
        super().__init__()
        self.dense = Linear(inputs, config.hidden)
        self.LayerNorm = nn.LayerNorm(config.hidden, eps=config.eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(residual + self.dropout(self.dense(x)))


class Attention(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.self = SelfAttention(config)
        self.output = DenseNorm(config, inputs=config.hidden)

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> torch.Tensor:
        return self.output(self.self(x, mask_bias), x)


class Intermediate(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.dense = Linear(config.hidden, config.intermediate)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.dense(x))  # the exact (erf) GELU, as BERT and the ONNX graph use


class Layer(nn.Module):
    """One post-norm transformer layer, with Hugging Face's module names."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.attention = Attention(config)
        self.intermediate = Intermediate(config)
        self.output = DenseNorm(config, inputs=config.intermediate)

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> torch.Tensor:
        x = self.attention(x, mask_bias)
        return self.output(self.intermediate(x), x)


class Encoder(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(Layer(config) for _ in range(config.layers))

    def forward(self, x: torch.Tensor, mask_bias: torch.Tensor) -> torch.Tensor:
        for layer in self.layer:
            x = layer(x, mask_bias)
        return x


class Pooler(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.dense = Linear(config.hidden, config.hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.dense(x[:, 0]))


class Bert(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.embeddings = Embeddings(config)
        self.encoder = Encoder(config)
        self.pooler = Pooler(config)

    def hidden(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
               token_type_ids: torch.Tensor) -> torch.Tensor:
        """The last layer's vector of every token, ``[batch, length, hidden]``."""
        x = self.embeddings(input_ids, token_type_ids)
        keep = attention_mask[:, None, None, :].to(x.dtype)
        return self.encoder(x, (1.0 - keep) * torch.finfo(x.dtype).min)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        """The pooled ([CLS]) vector of each pair."""
        return self.pooler(self.hidden(input_ids, attention_mask, token_type_ids))


class CrossEncoder(nn.Module):
    """(question, passage) pair -> relevance logits, ``[batch, labels]``.

    Padding is masked with the most negative float, as the exported graph does, so a padded
    pair scores as it does alone (in fp32; see ``simulate_int8`` for the INT8 graph).
    """

    def __init__(self, config: BertConfig | None = None) -> None:
        super().__init__()
        self.config = config or BertConfig()
        self.bert = Bert(self.config)
        self.dropout = nn.Dropout(0.1)
        self.classifier = Linear(self.config.hidden, self.config.labels)

    def set_simulate_int8(self, *, on: bool) -> None:
        """Quantise every matmul input per tensor, as the shipped INT8 graph does."""
        for module in self.modules():
            if isinstance(module, Linear):
                module.simulate_int8 = on

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                token_type_ids: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.dropout(self.bert(input_ids, attention_mask,
                                                      token_type_ids)))
