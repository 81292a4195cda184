#!/usr/bin/env python3
"""Converts a sentence-transformers BERT model (config.json, model.safetensors,
vocab.txt, tokenizer.json, 1_Pooling/config.json) to a GGUF file that
llama.cpp runs as an embedding model (architecture "bert", WordPiece
vocabulary, mean or CLS pooling as the model's pooling config says).

  convert_bert.py MODEL_DIR OUT.gguf [--outtype f32|f16] [--name NAME]

Uses PyPI's gguf, safetensors and numpy only (no torch, no transformers).
The tensor names come from gguf's own BERT name map and the vocabulary is
written the way llama.cpp's convert_hf_to_gguf.py writes a BERT vocabulary
("##" continuation pieces bare, word-initial pieces with a leading U+2581).
The output is written to a temporary name and renamed when complete; every
error names the file and stops with exit status 1.
"""
import argparse
import json
import os
import sys

import numpy as np


class ConvertError(Exception):
    pass


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise ConvertError(f"{path}: cannot read: {e.strerror}")
    except json.JSONDecodeError as e:
        raise ConvertError(f"{path}:{e.lineno}:{e.colno}: malformed JSON: {e.msg}")


def pooling_type(gguf, model_dir):
    """The pooling of the sentence-transformers Pooling module (mean if the
    model has none)."""
    modules = os.path.join(model_dir, "modules.json")
    path = None
    if os.path.isfile(modules):
        for m in read_json(modules):
            if m.get("type", "").endswith("Pooling"):
                path = os.path.join(model_dir, m["path"], "config.json")
    if path is None:
        return gguf.PoolingType.MEAN
    cfg = read_json(path)
    if cfg.get("pooling_mode_mean_tokens"):
        return gguf.PoolingType.MEAN
    if cfg.get("pooling_mode_cls_token"):
        return gguf.PoolingType.CLS
    raise ConvertError(f"{path}: pooling mode not supported (mean or cls)")


def vocabulary(gguf, model_dir, n_vocab):
    path = os.path.join(model_dir, "vocab.txt")
    try:
        with open(path, encoding="utf-8") as f:
            tokens = f.read().split("\n")
    except OSError as e:
        raise ConvertError(f"{path}: cannot read: {e.strerror}")
    if tokens and tokens[-1] == "":
        tokens.pop()
    if len(tokens) != n_vocab:
        raise ConvertError(f"{path}: {len(tokens)} tokens, config.json says {n_vocab}")
    special = set()
    tok_json = os.path.join(model_dir, "tokenizer.json")
    if os.path.isfile(tok_json):
        special = {t["content"] for t in read_json(tok_json).get("added_tokens", [])
                   if t.get("special")}
    out, types = [], []
    for tok in tokens:
        if tok in special:
            out.append(tok)
            types.append(gguf.TokenType.CONTROL)
        else:
            out.append(tok[2:] if tok.startswith("##") else "\u2581" + tok)
            types.append(gguf.TokenType.NORMAL)
    return out, types, {t: i for i, t in enumerate(tokens)}


def convert(model_dir, out_path, outtype, name):
    import gguf
    from safetensors.numpy import load_file

    cfg = read_json(os.path.join(model_dir, "config.json"))
    if cfg.get("model_type") != "bert":
        raise ConvertError(f"{model_dir}/config.json: model_type '{cfg.get('model_type')}', "
                           "expected 'bert'")
    try:
        n_layer, n_embd, n_ff = (cfg["num_hidden_layers"], cfg["hidden_size"],
                                 cfg["intermediate_size"])
        n_head, n_vocab, n_ctx = (cfg["num_attention_heads"], cfg["vocab_size"],
                                  cfg["max_position_embeddings"])
    except KeyError as e:
        raise ConvertError(f"{model_dir}/config.json: no '{e.args[0]}'")
    if cfg.get("hidden_act", "gelu") != "gelu":
        raise ConvertError(f"{model_dir}/config.json: hidden_act '{cfg['hidden_act']}' "
                           "not supported (gelu)")
    st = os.path.join(model_dir, "model.safetensors")
    try:
        tensors = load_file(st)
    except Exception as e:  # safetensors raises its own error types
        raise ConvertError(f"{st}: cannot load: {e}")

    tokens, types, ids = vocabulary(gguf, model_dir, n_vocab)
    tmp = out_path + ".tmp"
    w = gguf.GGUFWriter(tmp, gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    w.add_name(name)
    w.add_block_count(n_layer)
    w.add_context_length(n_ctx)
    w.add_embedding_length(n_embd)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_layer_norm_eps(cfg.get("layer_norm_eps", 1e-12))
    w.add_causal_attention(False)
    w.add_pooling_type(pooling_type(gguf, model_dir))
    w.add_file_type(gguf.LlamaFileType.ALL_F32 if outtype == "f32"
                    else gguf.LlamaFileType.MOSTLY_F16)
    w.add_tokenizer_model("bert")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_type_count(cfg.get("type_vocab_size", 2))
    for name in ("[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"):
        if name not in ids:
            raise ConvertError(f"{model_dir}/vocab.txt: no {name} token")
    w.add_unk_token_id(ids["[UNK]"])
    w.add_sep_token_id(ids["[SEP]"])
    w.add_pad_token_id(ids["[PAD]"])
    w.add_mask_token_id(ids["[MASK]"])
    # The input is [CLS] text [SEP], as the model was trained ([CLS] is BOS).
    w.add_bos_token_id(ids["[CLS]"])
    w.add_eos_token_id(ids["[SEP]"])
    w.add_add_bos_token(True)
    w.add_add_eos_token(True)

    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, n_layer)
    skip = {"embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias"}
    for name in sorted(tensors):
        if name in skip:
            continue
        hf = name[5:] if name.startswith("bert.") else name
        new = names.get_name(hf, try_suffixes=(".weight", ".bias"))
        if new is None:
            raise ConvertError(f"{st}: tensor '{name}' has no llama.cpp BERT name")
        data = tensors[name]
        if data.dtype != np.float32:
            data = data.astype(np.float32)
        # Matrices in half precision for f16; vectors (norms, biases) and the
        # embedding tables' rows stay f32 where llama.cpp needs them.
        if outtype == "f16" and data.ndim == 2 and not new.startswith(("token_types",)):
            data = data.astype(np.float16)
        w.add_tensor(new, data)
    try:
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        os.replace(tmp, out_path)
    except OSError as e:
        raise ConvertError(f"{out_path}: cannot write: {e.strerror}")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("out")
    ap.add_argument("--outtype", choices=("f32", "f16"), default="f32")
    ap.add_argument("--name", help="the model's name in the file (default: OUT's stem)")
    args = ap.parse_args()
    try:
        convert(args.model_dir, args.out, args.outtype,
                args.name or os.path.splitext(os.path.basename(args.out))[0])
    except ConvertError as e:
        sys.exit(f"convert-bert: error: {e}")


if __name__ == "__main__":
    main()
