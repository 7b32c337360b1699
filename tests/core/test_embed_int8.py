"""The int8 copy of a local model: made once, remade when the model changes, never half-made."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memo_tui.core.embed.embedder import EmbeddingUnavailable
from memo_tui.core.embed.int8 import int8_copy


def tiny_model(folder: Path) -> Path:
    """A model folder as fastembed expects one: a one-MatMul ONNX model and its tokenizer."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    weight = numpy_helper.from_array(np.arange(64, dtype=np.float32).reshape(8, 8) / 64, "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])],
        initializer=[weight],
    )
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), folder / "model.onnx"
    )
    (folder / "tokenizer.json").write_text("{}")
    (folder / "tokenizer_config.json").write_text('{"model_max_length": 256}')
    (folder / "vocab.txt").write_text("[PAD]\n")
    (folder / "notes.md").write_text("not copied")
    return folder


def test_the_copy_is_made_once_beside_the_tokenizer(tmp_path: Path) -> None:
    import onnx

    source, cache = tiny_model(tmp_path / "model"), tmp_path / "cache"
    made = int8_copy(source, cache)
    names = sorted(p.name for p in made.iterdir())
    assert names == [
        "made-from.json",
        "model.onnx",
        "tokenizer.json",
        "tokenizer_config.json",
        "vocab.txt",
    ]
    ops = {node.op_type for node in onnx.load(made / "model.onnx").graph.node}
    assert "MatMulInteger" in ops  # int8 weights, not a copy of the float model
    stamp = (made / "model.onnx").stat().st_mtime_ns
    assert int8_copy(source, cache) == made
    assert (made / "model.onnx").stat().st_mtime_ns == stamp  # found, not made again
    assert [p.name for p in cache.iterdir()] == [made.name]  # no work folder left behind


@pytest.mark.parametrize("changed", ["model.onnx", "tokenizer.json"])
def test_a_changed_model_gets_a_new_copy_and_the_old_one_goes(tmp_path: Path, changed: str) -> None:
    source, cache = tiny_model(tmp_path / "model"), tmp_path / "cache"
    other = int8_copy(tiny_model(tmp_path / "other"), cache)  # another model's copy stays
    first = int8_copy(source, cache)
    later = (source / changed).stat().st_mtime_ns + 10**9
    os.utime(source / changed, ns=(later, later))
    second = int8_copy(source, cache)
    assert second != first and not first.exists()
    assert sorted(cache.iterdir()) == sorted([other, second])


def test_work_left_by_a_stopped_copy_is_cleared_once_abandoned(tmp_path: Path) -> None:
    source, cache = tiny_model(tmp_path / "model"), tmp_path / "cache"
    cache.mkdir()
    abandoned, going = cache / ".int8-old", cache / ".int8-new"
    for folder in (abandoned, going):
        folder.mkdir()
        (folder / "model.onnx").write_bytes(b"half")
    hours_ago = abandoned.stat().st_mtime_ns - 2 * 3600 * 10**9
    os.utime(abandoned, ns=(hours_ago, hours_ago))
    made = int8_copy(source, cache)
    assert sorted(p.name for p in cache.iterdir()) == sorted([made.name, going.name])


def test_a_model_that_cannot_be_quantized_leaves_nothing_and_says_what_to_do(
    tmp_path: Path,
) -> None:
    source, cache = tmp_path / "model", tmp_path / "cache"
    source.mkdir()
    (source / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(EmbeddingUnavailable, match="MEMO_EMBED_INT8=0"):
        int8_copy(source, cache)
    assert list(cache.iterdir()) == []


def test_an_unwritable_cache_says_so(tmp_path: Path) -> None:
    source = tiny_model(tmp_path / "model")
    (tmp_path / "file").write_text("")
    with pytest.raises(EmbeddingUnavailable, match="not writable"):
        int8_copy(source, tmp_path / "file" / "cache")  # (a file where a folder must be)


def test_the_copy_reads_no_more_tokens_than_the_model_was_trained_on(tmp_path: Path) -> None:
    import json

    source, cache = tiny_model(tmp_path / "model"), tmp_path / "cache"
    capped = int8_copy(source, cache, max_tokens=128)
    assert json.loads((capped / "tokenizer_config.json").read_text())["model_max_length"] == 128
    assert json.loads((source / "tokenizer_config.json").read_text())["model_max_length"] == 256
    assert int8_copy(source, cache) != capped  # another recipe, another copy
    assert int8_copy(source, cache, max_tokens=512) != capped
    longer = int8_copy(source, cache, max_tokens=512)
    assert json.loads((longer / "tokenizer_config.json").read_text())["model_max_length"] == 256


def test_the_quantizer_reads_a_private_copy_never_the_model_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """onnxruntime's quantizer writes a scratch file beside its input: given the model
    folder itself, two processes making the copy at once removed each other's scratch file
    (one fell back to keyword search) and a read-only folder could not be used at all."""
    from onnxruntime import quantization

    source, cache = tiny_model(tmp_path / "model"), tmp_path / "cache"
    before = sorted(p.name for p in source.iterdir())
    real = quantization.quantize_dynamic
    inputs: list[Path] = []

    def watched(model_input, *args, **kwargs):  # type: ignore[no-untyped-def]
        inputs.append(Path(model_input))
        return real(model_input, *args, **kwargs)

    monkeypatch.setattr(quantization, "quantize_dynamic", watched)
    made = int8_copy(source, cache)
    [given] = inputs
    assert given.parent != source and cache in given.parents
    assert sorted(p.name for p in source.iterdir()) == before
    assert not (made / "source").exists()  # the private copy is gone with its work


def test_a_model_with_its_weights_in_a_file_beside_it_is_quantized(tmp_path: Path) -> None:
    import onnx

    source, cache = tiny_model(tmp_path / "model"), tmp_path / "cache"
    model = onnx.load(source / "model.onnx")
    onnx.save(
        model,
        source / "model.onnx",
        save_as_external_data=True,
        location="weights.bin",
        size_threshold=0,
    )
    assert (source / "weights.bin").is_file()
    made = int8_copy(source, cache)
    ops = {node.op_type for node in onnx.load(made / "model.onnx").graph.node}
    assert "MatMulInteger" in ops
