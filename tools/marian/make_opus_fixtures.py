#!/usr/bin/env python3
"""Two tiny Opus-MT checkpoints laid out as Hub repositories, and transformers' outputs on them.

    make_opus_fixtures.py OUTDIR          (tools/marian/make_fixtures.py runs it into OUTDIR/opus)

OUTDIR/repos/Helsinki-NLP/opus-mt-en-de        as opus-mt-en-de is published: pytorch_model.bin only
    (torch.save of the state dict), activation swish, </s> at 0, <pad> last, shared vocabulary
OUTDIR/repos/Helsinki-NLP/opus-mt-tc-big-en-fr as the tc-big models are: float16 model.safetensors only,
    activation relu, </s> and <unk> in the middle of vocab.json (ids read from the files), and a few
    source pieces missing from vocab.json (they become <unk>)
Each: config.json, generation_config.json (num_beams 4, max_length 40, bad_words_ids [[pad]],
forced_eos_token_id), source.spm and target.spm (SentencePiece models trained here on
sentences.en.txt and on a made-up "translation" of it), vocab.json, tokenizer_config.json.
The models (d_model 32, 2+2 layers, 4 heads) are trained for a few steps to copy a sentence in lower case (a made-up translation), so that
their outputs depend on their inputs.

OUTDIR/goldens/<name>.json: for each test line, MarianTokenizer's source ids (and target-mode ids),
MarianMTModel.generate's ids (greedy and num_beams=4; the model run in f32) and
tokenizer.batch_decode(skip_special_tokens=True) of them. Needs torch + transformers
(tools/neutts/install_parity.sh).
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MAX_LENGTH = 40
STEPS = 200
TEST_LINES = [
    "The cat sat on the mat.", "Hello world.", "Where is the nearest train station?",
    "I would like a cup of coffee with milk, please.", "Our flight was delayed by three hours.",
    "Thank you very much!", "tomorrow morning", "The meeting has been moved to Thursday afternoon.",
    "Ünïcödé ✓ 東京 — “quotes”", "  Extra   spaces\tand ＦＵＬＬＷＩＤＴＨ text ①  ", "",
    "A", "Numbers 1234 and 56.78%", "She said: «Não!»", ">>fra<< Hello world.", "Hello >>deu<< world <<",
]


def made_up_translation(line: str) -> str:
    return line.lower().replace(".", " .")


def train_spm(lines, prefix: Path, size: int, model_type: str):
    import sentencepiece as spm
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    spm.SentencePieceTrainer.train(input=f.name, model_prefix=str(prefix), vocab_size=size, model_type=model_type,
                                   character_coverage=1.0, minloglevel=2, seed_sentencepiece_size=10000,
                                   num_threads=1)
    Path(f.name).unlink()
    return prefix.with_suffix(".model")


def pieces_of(model: Path):
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=str(model))
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not sp.is_control(i) and not sp.is_unknown(i)]


def make_repo(root: Path, name: str, lines, targets, *, activation, eos_first, half, seed):
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel, MarianTokenizer
    repo = root / "repos" / "Helsinki-NLP" / name
    repo.mkdir(parents=True, exist_ok=True)
    work = root / "work" / name
    work.mkdir(parents=True, exist_ok=True)
    src_model = train_spm(lines, work / "source", 180, "unigram")
    tgt_model = train_spm(targets, work / "target", 160, "bpe" if half else "unigram")
    pieces = list(dict.fromkeys(pieces_of(src_model) + pieces_of(tgt_model)))
    if eos_first:  # as opus-mt-en-de: </s> 0, <unk> 1, ..., <pad> last
        tokens = ["</s>", "<unk>"] + pieces + ["<pad>"]
    else:  # as the tc-big models: the special tokens among the pieces; some source pieces left out
        rng = np.random.default_rng(seed)
        dropped = set(rng.choice([p for p in pieces_of(src_model) if len(p) > 2], 6, replace=False))
        kept = [p for p in pieces if p not in dropped]
        tokens = kept[:37] + ["</s>"] + kept[37:90] + ["<unk>"] + kept[90:] + ["<pad>"]
    vocab = {t: i for i, t in enumerate(tokens)}
    (work / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    tokenizer = MarianTokenizer(str(src_model), str(tgt_model), str(work / "vocab.json"), source_lang="en",
                                target_lang=name.rsplit("-", 1)[1])
    eos, pad = vocab["</s>"], vocab["<pad>"]
    config = MarianConfig(vocab_size=len(vocab), decoder_vocab_size=len(vocab), d_model=32, encoder_layers=2, decoder_layers=2,
                          encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64,
                          max_position_embeddings=128, pad_token_id=pad, eos_token_id=eos, decoder_start_token_id=pad,
                          forced_eos_token_id=eos, activation_function=activation, scale_embedding=True, dropout=0.0,
                          attention_dropout=0.0, activation_dropout=0.0, share_encoder_decoder_embeddings=True)
    torch.manual_seed(seed)
    model = MarianMTModel(config)
    with torch.no_grad():
        model.final_logits_bias.normal_(0, 0.5)
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    batch = tokenizer(lines[:64], text_target=targets[:64], return_tensors="pt", padding=True, truncation=True,
                      max_length=MAX_LENGTH)
    batch["labels"][batch["labels"] == pad] = -100
    for _ in range(STEPS):
        optimiser.zero_grad()
        model(**batch).loss.backward()
        optimiser.step()
    model.eval()
    generation = GenerationConfig(bad_words_ids=[[pad]], decoder_start_token_id=pad, eos_token_id=eos, pad_token_id=pad,
                                  forced_eos_token_id=eos, max_length=MAX_LENGTH, num_beams=4)
    config.save_pretrained(repo)
    generation.save_pretrained(repo)
    tokenizer.save_pretrained(repo)
    for extra in ("special_tokens_map.json", "tokenizer.json", "added_tokens.json", "chat_template.jinja"):
        (repo / extra).unlink(missing_ok=True)
    state = {k: v.detach().clone() for k, v in model.state_dict().items() if "embed_positions" not in k}
    if half:
        from safetensors.torch import save_file
        # One storage per tensor (tied ones saved once, as transformers saves them).
        state = {k: v.half().contiguous() for k, v in state.items()
                 if k not in ("lm_head.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight")}
        save_file(state, str(repo / "model.safetensors"), metadata={"format": "pt"})
    else:
        torch.save(state, repo / "pytorch_model.bin")
    return repo


def goldens(repo: Path, out: Path):
    import torch
    from transformers import MarianMTModel, MarianTokenizer
    tokenizer = MarianTokenizer.from_pretrained(str(repo))
    model = MarianMTModel.from_pretrained(str(repo), dtype=torch.float32).eval()
    cases = []
    for line in TEST_LINES:
        ids = tokenizer(line).input_ids
        target_ids = tokenizer(text_target=line).input_ids
        row = {"text": line, "ids": ids, "targetIds": target_ids}
        for key, beams in (("greedy", 1), ("beam4", 4)):
            with torch.no_grad():
                out_ids = model.generate(torch.tensor([ids]), num_beams=beams, max_length=MAX_LENGTH, do_sample=False)[0].tolist()
            generated = out_ids[1:]
            if tokenizer.eos_token_id in generated:
                generated = generated[: generated.index(tokenizer.eos_token_id)]
            row[key] = generated
            row[key + "Text"] = tokenizer.batch_decode([out_ids], skip_special_tokens=True)[0]
        cases.append(row)
    unk = tokenizer.unk_token_id
    decodes = []
    for ids in ([5, 6, unk, 7], [unk], list(range(3, 20)), [8, tokenizer.eos_token_id, 9]):
        decodes.append({"ids": ids, "text": tokenizer.decode(ids, skip_special_tokens=True)})
    out.write_text(json.dumps({"repo": repo.name, "eos": tokenizer.eos_token_id, "unk": unk, "pad": tokenizer.pad_token_id,
                               "maxLength": MAX_LENGTH, "cases": cases, "decodes": decodes}, ensure_ascii=False, indent=1))


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    root = Path(argv[0])
    lines = [x for x in (HERE / "sentences.en.txt").read_text(encoding="utf-8").splitlines() if x.strip()]
    targets = [made_up_translation(x) for x in lines]
    (root / "goldens").mkdir(parents=True, exist_ok=True)
    import torch
    torch.set_num_threads(1)
    for name, kw in (("opus-mt-en-de", dict(activation="swish", eos_first=True, half=False, seed=1)),
                     ("opus-mt-tc-big-en-fr", dict(activation="relu", eos_first=False, half=True, seed=2))):
        repo = make_repo(root, name, lines, targets, **kw)
        goldens(repo, root / "goldens" / f"{name}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
