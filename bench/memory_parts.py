"""What each large part of the default checker costs in memory, each measured in a fresh process.

    nice python bench/memory_parts.py --synth-dir DIR [--cases 30] [--rounds 3]

The parts ``bench/memory.py`` shows growing a process that checks every language, each loaded
alone in a child process that reports its resident memory before and after (MB), the way
hallucheck loads it now and the way it did before (commit a29f3c0), so that each change is
measured on its own:

- ``lexicons``: lemmas and known-word tests in English, German and French through
  ``hallucheck.text.lexicons`` (simplemma's low-memory backend) against simplemma's default
  backend (each language's whole dictionary decoded into a dict);
- ``langid``: the language identifier as ``hallucheck.text.language`` builds it (weights of our
  languages only) against ``LanguageIdentifier.from_model_file`` + ``set_languages``;
- ``jieba``: the Chinese word segmenter's dictionary, loaded by the first Chinese text;
- ``taggers``: both span taggers, sessions made by ``hallucheck.models.runtime`` (one shared arena,
  no memory patterns) against sessions with ONNX Runtime's defaults (an arena each, memory
  patterns on), running the windows of ``--cases`` English RAGTruth answers (train part) and as
  many German, French and Simplified Chinese synth cases (``--synth-dir``, train part) through
  the tagger that reads each, ``--rounds`` times; reported: the peak over the resident size before
  the sessions were made and seconds per round (wall and CPU; the first round makes the
  sessions); then one more child holds both settings, runs their rounds alternately (so that
  both see the same load) and says whether their probabilities are equal to the bit;
- ``caches``: what the caches that live across checks hold per unit, after the default checker
  read ``--cache-cases`` English RAGTruth answers (train part; their sources are new to it):
  bytes per source character of the source analyses and of the tagger's source views, and bytes
  per word of the word tables with the lemma cache (Python allocations, by ``tracemalloc``:
  what clearing each cache gives back).

Writes ``bench/results/memory_parts.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import RAGTRUTH, machine, write_result

_HEAD = r'''
import json, resource, sys, time
def status():
    with open("/proc/self/status", encoding="ascii") as f:
        d = {l.split(":")[0]: int(l.split()[1]) for l in f if l.startswith(("VmRSS", "VmHWM"))}
    return d["VmRSS"] / 1024, d["VmHWM"] / 1024
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
import numpy, regex
'''

_WORDS = r'''
WORDS = {"en": ["houses", "children", "flew", "analyses", "better"], "de": ["Häuser", "gegangen", "Lieferung", "Verkäufe"],
         "fr": ["maisons", "allées", "annoncé", "retraites"]}
'''

_PARTS = {
    "lexicons": _WORDS + r'''
from hallucheck.text.lexicons import is_known, lemmatize
before = status()[0]
for lang, words in WORDS.items():
    for w in words:
        lemmatize(w.lower(), lang); is_known(w, lang)
''',
    "lexicons_before": _WORDS + r'''
import simplemma
before = status()[0]
for lang, words in WORDS.items():
    for w in words:
        simplemma.lemmatize(w.lower(), lang); simplemma.is_known(w, lang)
''',
    "langid": r'''
from hallucheck.text.language import load_identifier
before = status()[0]
load_identifier()
''',
    "langid_before": r'''
from py3langid.langid import MODEL_FILE, LanguageIdentifier
from hallucheck.text.language import _LANGID_LANGUAGES
before = status()[0]
ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
ident.set_languages(list(_LANGID_LANGUAGES))
''',
    "jieba": r'''
from hallucheck.text.tokens import tokenize
before = status()[0]
tokenize("退款将在收到退货后十个工作日内退回原支付方式。", "zh-Hans")
''',
}

_TAGGERS = r'''
from hallucheck.models import runtime
from hallucheck.models.tagger import MULTILINGUAL_TAGGER_DIR, TAGGER_DIR, Tagger
from hallucheck.models.tagger_features import encode_answer_windows
from hallucheck.eval.datasets import load_dataset
data, synth, k, rounds, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]

def default_session(model, *, threads, optimize=True, spin=None, config=None):
    """A session as ONNX Runtime makes it by default: an arena of its own, memory patterns on."""
    ort = runtime.onnxruntime()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, int(threads))
    opts.inter_op_num_threads = 1
    if optimize:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])

def pick(path, fmt):
    """``k`` cases spread over the train part, streamed: nothing large is built and dropped
    before the sessions (freed memory would be reused by them and hide their cost)."""
    from hallucheck.eval.datasets import count_examples
    step = max(count_examples(path, fmt, split="train") // k, 1)
    return [ex.case for i, ex in enumerate(load_dataset(path, fmt, split="train")) if i % step == 0][:k]

cases = {"en": pick(data, "ragtruth")}
for lang in ("de", "fr", "zh-Hans"):
    cases[lang] = pick(f"{synth}/debref.{lang}.jsonl", "generic")
# Windows are built before any session exists, so that their cost (tokenisers, lexicons,
# source views) is not counted as the sessions'.
from tokenizers import Tokenizer
from hallucheck.models.tagger_evidence import source_view
from hallucheck.models.tagger_features import EncoderSettings
runtime.onnxruntime()
work = []
for d, langs in ((TAGGER_DIR, ("en",)), (MULTILINGUAL_TAGGER_DIR, ("de", "fr", "zh-Hans"))):
    config = json.loads((d / "config.json").read_text(encoding="utf-8"))
    settings = EncoderSettings(**config["encoder"], features=tuple(config["feature_names"]))
    tok = Tokenizer.from_file(str(d / "tokenizer.json")); tok.no_padding(); tok.no_truncation()
    for lang in langs:
        for c in cases[lang]:
            view = source_view(tuple(s.text for s in c.contexts), lang, tok)
            windows, _ = encode_answer_windows(c.answer, c.question, view, tok, lang, settings)
            work.append((d, windows))
import gc; gc.collect()
before = status()[0]
sessions = {}
def tagger(d, how):
    key = (d, how)
    if key not in sessions:
        runtime_session = runtime.inference_session
        if how == "before":
            runtime.inference_session = default_session
        try:
            sessions[key] = Tagger(d)
        finally:
            runtime.inference_session = runtime_session
    return sessions[key]
hows = ["now", "before"] if mode == "compare" else [mode]
times, probs = [], {}
for r in range(rounds):
    for how in hows:
        t0, c0 = time.perf_counter(), cpu()
        out = [tagger(d, how).run_typed(w)[0] for d, w in work]
        times.append((how, time.perf_counter() - t0, cpu() - c0))
        probs[how] = out
result = {"mb": round(status()[1] - before, 1), "windows": sum(len(w) for _, w in work),
          "seconds_per_round": round(sum(t for h, t, _ in times if h == hows[0]) / rounds, 2),
          "cpu_seconds_per_round": round(sum(c for h, _, c in times if h == hows[0]) / rounds, 2)}
if mode == "compare":
    import numpy as np
    result = {"identical": all(np.array_equal(a, b) for x, y in zip(probs["now"], probs["before"]) for a, b in zip(x, y)),
              "windows": result["windows"]}
    for how in hows:  # rounds alternate between the two settings: the same load for both
        result[f"cpu_seconds_per_round_{how}"] = [round(c, 2) for h, _, c in times if h == how]
        result[f"seconds_per_round_{how}"] = [round(t, 2) for h, t, _ in times if h == how]
print(json.dumps(result))
'''


_CACHES = r'''
import gc, tracemalloc
from hallucheck import analysis
from hallucheck.checker import Checker
from hallucheck.eval.datasets import count_examples, load_dataset
from hallucheck.models import tagger_evidence
from hallucheck.text import tokens
data, k = sys.argv[1], int(sys.argv[2])
step = max(count_examples(data, "ragtruth", split="train") // k, 1)
cases = [ex.case for i, ex in enumerate(load_dataset(data, "ragtruth", split="train")) if i % step == 0][:k]
checker = Checker()
checker.check(cases[0])  # models and lexicons load here, before the tracing
analysis._CACHE.clear(); tagger_evidence._CACHE.clear(); tokens._WORD_TABLES.clear(); tokens.lemma.cache_clear()
gc.collect()
tracemalloc.start()
for case in cases:
    checker.check(case)
gc.collect()
held = {"source_chars": sum(len(t) for _, t in analysis._CACHE),
        "view_chars": sum(sum(map(len, key[0])) for key in tagger_evidence._CACHE),
        "words": sum(map(len, tokens._WORD_TABLES.values()))}
def drop(clear):
    before = tracemalloc.get_traced_memory()[0]
    clear(); gc.collect()
    return before - tracemalloc.get_traced_memory()[0]
sa = drop(analysis._CACHE.clear)
tv = drop(tagger_evidence._CACHE.clear)
wt = drop(lambda: (tokens._WORD_TABLES.clear(), tokens.lemma.cache_clear()))
print(json.dumps({**held, "source_analyses": len(cases),
                  "bytes_per_source_char": round(sa / max(held["source_chars"], 1)),
                  "bytes_per_view_char": round(tv / max(held["view_chars"], 1)),
                  "bytes_per_word_with_its_lemma": round(wt / max(held["words"], 1))}))
'''


def run_part(code: str, args: list[str] | None = None) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-c", code, *(args or [])], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return {"error": proc.stderr[-1500:]}
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(RAGTRUTH))
    ap.add_argument("--synth-dir", type=Path, required=True, help="folder of debref.<lang>.jsonl")
    ap.add_argument("--cases", type=int, default=30, help="cases of each language for the taggers")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache-cases", type=int, default=100, help="English RAGTruth answers for the cache sizes")
    args = ap.parse_args()
    if not Path("/proc/self/status").is_file():
        sys.exit("this bench reads /proc/self/status (Linux)")
    result: dict[str, Any] = {"machine": machine()}
    tail = '\nprint(json.dumps({"mb": round(status()[0] - before, 1)}))\n'
    for name, code in _PARTS.items():
        result[name] = run_part(_HEAD + code + tail)
        print(name, json.dumps(result[name]), flush=True)
    targs = [args.data, str(args.synth_dir), str(args.cases), str(args.rounds)]
    for mode in ("now", "before", "compare"):
        key = "taggers" if mode == "now" else f"taggers_{mode}"
        result[key] = run_part(_HEAD + _TAGGERS, [*targs, mode])
        print(key, json.dumps(result[key]), flush=True)
    result["caches"] = run_part(_HEAD + _CACHES, [args.data, str(args.cache_cases)])
    print("caches", json.dumps(result["caches"]), flush=True)
    result["load_average_1m_after"] = machine()["load_average_1m"]
    print(f"wrote {write_result('memory_parts', result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
