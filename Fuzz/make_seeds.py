#!/usr/bin/env python3
"""Writes the seed corpora under Fuzz/Corpus/<target>/ (run from anywhere: python3 Fuzz/make_seeds.py).

Text seeds are copies of small files from Samples/ and Tests/DigitalInkTests/Fixtures plus hand-made
edge cases; the safetensors and lm.bin seeds are tiny valid (and a few nearly valid) files made
here, never the model weights. Re-running rewrites the same files (deterministic).
"""
import json, math, os, shutil, struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
FIX = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures")


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def copy(target, name, src):
    put(target, name, open(os.path.join(ROOT, src), "rb").read())


# --- project JSON ---------------------------------------------------------------------------------
copy("fuzz-json", "hello.json", "Tests/DigitalInkTests/Fixtures/formats/hello.json")
copy("fuzz-json", "there.json", "Samples/there.json")
copy("fuzz-json", "shape-arrow.json", "Samples/shape-arrow.json")
put("fuzz-json", "minimal.json", '{"strokes":[{"points":[{"x":0,"y":0}]}]}')
put("fuzz-json", "empty-strokes.json", '{"strokes":[]}')
put("fuzz-json", "all-fields.json",
    '{"strokes":[{"points":[{"x":1.5e2,"y":-3,"t":1000},{"x":2,"y":4,"t":1016}]}],'
    '"writingArea":{"width":600,"height":120},"preContext":"h\\u00e9llo \\ud83d\\ude00","id":"a","label":"x",'
    '"word":"w","key_id":"123","unknown":[1,{"a":null},true,false,"s"]}')
put("fuzz-json", "quickdraw.json", '{"word":"cat","key_id":"5","drawing":[[[0,10,20],[0,5,0]],[[5],[5]]]}')
put("fuzz-json", "numbers.json", '{"strokes":[{"points":[{"x":1e308,"y":-0.0,"t":9007199254740993},{"x":1E-400,"y":0.1e1}]}]}')
put("fuzz-json", "duplicate-keys.json", '{"strokes":[],"strokes":[{"points":[{"x":0,"y":0,"x":1}]}],"id":null}')
put("fuzz-json", "writing-area-tiny.json", '{"strokes":[{"points":[{"x":0,"y":0},{"x":1,"y":1}]}],"writingArea":{"width":1e-9,"height":1e-9}}')
put("fuzz-json", "truncated.json", '{"strokes":[{"points":[{"x":0,"y":')
put("fuzz-json", "bom-ws.json", '\ufeff \n\t{"strokes" : [ ] }\r\n')

# --- JSON Lines -----------------------------------------------------------------------------------
hello = open(os.path.join(FIX, "formats", "hello.json")).read().strip()
one_line = json.dumps(json.loads(hello), separators=(",", ":"))
put("fuzz-jsonl", "two.jsonl", one_line + "\n" + '{"strokes":[{"points":[{"x":0,"y":0}]}],"id":"b"}\n')
put("fuzz-jsonl", "blank-crlf.jsonl", '\r\n{"strokes":[]}\r\n\n  \n{"strokes":[{"points":[{"x":1,"y":2}]}]}')
put("fuzz-jsonl", "errors.jsonl", '{"strokes":1}\nnot json\n{"strokes":[{"points":[{"x":0,"y":0,"t":5},{"x":1,"y":1,"t":4}]}],"id":"dec"}\n{"id":7}\n')
put("fuzz-jsonl", "quickdraw.jsonl", '{"word":"cat","key_id":"5","drawing":[[[0,10],[0,5]]]}\n{"key_id":"6","drawing":[]}\n')

# --- InkML ----------------------------------------------------------------------------------------
copy("fuzz-inkml", "hello.inkml", "Tests/DigitalInkTests/Fixtures/formats/hello.inkml")
copy("fuzz-inkml", "word.inkml", "Samples/word.inkml")
put("fuzz-inkml", "minimal.inkml", '<ink xmlns="http://www.w3.org/2003/InkML"><trace>0 0, 1 1, 2 4</trace></ink>')
put("fuzz-inkml", "channels.inkml",
    '<?xml version="1.0"?><ink xmlns="http://www.w3.org/2003/InkML"><definitions><traceFormat xml:id="f">'
    '<channel name="X" type="decimal"/><channel name="Y" type="decimal"/><channel name="T" type="integer"/>'
    '<channel name="F" type="decimal"/></traceFormat></definitions>'
    '<traceGroup><trace contextRef="#f">10 0 100 0.5,11 1 116 0.6</trace></traceGroup>'
    '<trace>1e3 -2.5E-1 7</trace><annotation type="truth">a&amp;b</annotation></ink>')
put("fuzz-inkml", "diffs.inkml", "<ink><trace>10 10'1 1\"0 0!5 5 ?3 3</trace><trace>-1-1 .5.5</trace></ink>")
put("fuzz-inkml", "empty.inkml", '<ink></ink>')
put("fuzz-inkml", "entities.inkml", '<!DOCTYPE ink [<!ENTITY a "1 2, 3 4">]><ink><trace>&a;</trace></ink>')
put("fuzz-inkml", "cdata.inkml", '<ink><trace><![CDATA[0 0, 5 5]]></trace><!-- c --></ink>')

# --- stroke arrays --------------------------------------------------------------------------------
copy("fuzz-strokearrays", "hello.strokes.json", "Tests/DigitalInkTests/Fixtures/formats/hello.strokes.json")
put("fuzz-strokearrays", "two-arrays.json", '[[[0,1,2],[3,4,5]]]')
put("fuzz-strokearrays", "empty.json", '[]')
put("fuzz-strokearrays", "empty-stroke.json", '[[[],[]]]')
put("fuzz-strokearrays", "mismatch.json", '[[[0,1],[3],[1,2,3]]]')
put("fuzz-strokearrays", "floats.json", '[[[0.5,-1e10,1e-300],[1E2,0,-0],[0,1,1]]]')

# --- safetensors ----------------------------------------------------------------------------------
def safetensors(tensors, metadata=None, pad=True):
    """tensors: list of (name, dtype, shape, raw bytes)."""
    header, blob = {}, b""
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(blob), len(blob) + len(raw)]}
        blob += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    h = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + blob


f32 = lambda *v: struct.pack("<%df" % len(v), *v)
f16 = lambda *v: struct.pack("<%de" % len(v), *v)
bf16 = lambda *v: b"".join(struct.pack("<f", x)[2:] for x in v)
put("fuzz-safetensors", "f32.safetensors", safetensors([("w", "F32", [2, 3], f32(1, 2, 3, 4, 5, 6)), ("b", "F32", [3], f32(0, -1, 1e30))], {"format": "pt"}))
put("fuzz-safetensors", "f16-bf16.safetensors", safetensors([("h", "F16", [4], f16(1, -2, 65504, 6e-8)), ("g", "BF16", [2, 2], bf16(1, -1, 3.0e38, 1e-38))]))
put("fuzz-safetensors", "empty-tensor.safetensors", safetensors([("e", "F32", [0, 5], b""), ("s", "F32", [], f32(7))]))
put("fuzz-safetensors", "empty-header.safetensors", safetensors([], None))
put("fuzz-safetensors", "other-dtypes.safetensors", safetensors([("i", "I32", [1], b"\x01\0\0\0"), ("d", "F64", [1], struct.pack("<d", 1.0))]))
put("fuzz-safetensors", "bad-offsets.safetensors", struct.pack("<Q", 56) + b'{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,99]}}' + b"\0" * 8)
put("fuzz-safetensors", "nan-inf.safetensors", safetensors([("n", "F32", [3], f32(float("nan"), float("inf"), -float("inf"))), ("m", "F16", [1], b"\x00\x7e")]))

# --- lm.bin ---------------------------------------------------------------------------------------
def lm(order, symbols, grams, tail=b""):
    """grams: per order, a list of (key, logprob, backoff); sorted here."""
    out = b"INKLM1\0\0" + struct.pack("<II", order, symbols)
    for entries in grams:
        entries = sorted(entries)
        out += struct.pack("<I", len(entries))
        for k, lp, bo in entries:
            out += struct.pack("<Qff", k, lp, bo)
    return out + tail


uni = [(s, -1.0986, -0.1) for s in (1, 2, 3)]
put("fuzz-lm", "order1.bin", lm(1, 4, [uni]))
put("fuzz-lm", "order2.bin", lm(2, 4, [uni, [(0 * 256 + 1, -0.5, 0), (1 * 256 + 2, -0.2, 0), (2 * 256 + 3, -0.1, 0)]]))
put("fuzz-lm", "order3.bin", lm(3, 4, [uni, [(1 * 256 + 2, -0.2, -0.3)], [((1 * 256 + 2) * 256 + 3, -0.01, 0)]]))
put("fuzz-lm", "order7-empty-high.bin", lm(7, 3, [[(1, -0.7, 0), (2, -0.7, 0)]] + [[] for _ in range(6)]))
put("fuzz-lm", "symbols256.bin", lm(1, 256, [[(s, -5.54, 0) for s in range(1, 256)]]))
put("fuzz-lm", "trailing.bin", lm(1, 4, [uni], tail=b"\0"))
copy("fuzz-lm", "lm-small.bin", "Tests/DigitalInkTests/Fixtures/lm-small.bin")


def lm2(alphabet, grams, unknown=-9.0, tail=b""):
    """INKLM2 (Training/LM_FORMAT.md) with exact 1-byte codebooks. grams: per order n >= 2, a dict
    {symbols tuple: (logprob, backoff)}; unigrams are uniform over the alphabet (BOS included)."""
    S = len(alphabet) + 1
    order = 1 + len(grams)
    out = b"INKLM2\0\0" + struct.pack("<IIf", order, S, unknown)
    for a in alphabet:
        b = a.encode()
        out += struct.pack("<B", len(b)) + b
    parents = [(i,) for i in range(S)]
    bo1 = {p[:-1]: v[1] for n in grams for p, v in n.items() if len(p) == 2}
    levels = [({(i,): (-math.log(S - 1), bo1.get((i,), 0.0)) for i in range(S)})] + grams
    for n, level in enumerate(levels, start=1):
        keys = sorted(level)
        lps = sorted({level[k][0] for k in keys})
        bos = sorted({level[k][1] for k in keys})
        out += struct.pack("<IBBH", len(keys), 1, 1, 0)
        out += struct.pack("<I", len(lps)) + f32(*lps) + struct.pack("<I", len(bos)) + f32(*bos)
        if n >= 2:
            out += bytes(sum(1 for k in keys if k[:-1] == p) for p in parents)
            out += b"".join(struct.pack("<B" if S <= 256 else "<H", k[-1]) for k in keys)
        out += bytes(lps.index(level[k][0]) for k in keys) + bytes(bos.index(level[k][1]) for k in keys)
        parents = keys
    return out + tail


put("fuzz-lm", "v2-order1.bin", lm2(["a", "b"], []))
put("fuzz-lm", "v2-order3.bin", lm2(["a", "b", "\u0142"], [{(0, 1): (-0.4, -0.2), (1, 2): (-0.3, 0.0), (1, 3): (-1.2, 0.0)},
                                                       {(0, 1, 2): (-0.1, 0.0), (1, 2, 3): (-0.05, 0.0)}]))
put("fuzz-lm", "v2-wide.bin", lm2([chr(0x100 + i) for i in range(299)], [{(0, 1): (-0.5, 0.0), (1, 299): (-0.2, 0.0)}]))
put("fuzz-lm", "v2-trailing.bin", lm2(["a", "b"], [], tail=b"\0"))
copy("fuzz-lm", "lm2-small.bin", "Tests/DigitalInkTests/Fixtures/lm2-small.bin")

# --- manifest -------------------------------------------------------------------------------------
copy("fuzz-manifest", "manifest.json", "Models/manifest.json")
m = json.load(open(os.path.join(ROOT, "Models", "manifest.json")))
put("fuzz-manifest", "empty.json", '{"formatVersion":1,"models":[]}')
one = dict(m["models"][0]); one["files"] = one["files"][:1]
put("fuzz-manifest", "one-model.json", json.dumps({"formatVersion": 1, "models": [one]}, separators=(",", ":")))
bad = dict(one); bad["files"] = [{"path": "../x", "size": 9223372036854775807, "sha256": "00"}]
put("fuzz-manifest", "bad-path-size.json", json.dumps({"formatVersion": 1, "models": [bad]}))
put("fuzz-manifest", "version2.json", '{"formatVersion":2,"models":[{"identifier":"x"}]}')

# --- config.json ----------------------------------------------------------------------------------
copy("fuzz-config", "shapes.json", "Models/zxx-Zsym-x-shapes/config.json")
copy("fuzz-config", "en-US.json", "Models/en-US/config.json")
put("fuzz-config", "tiny-text.json", json.dumps({
    "formatVersion": 1, "identifier": "x", "kind": "text",
    "features": {"scheme": "resampled-v2", "stepsPerLineHeight": 4},
    "network": {"weights": "w.safetensors", "inputDim": 4, "hidden": 2, "layers": 1, "numClasses": 3, "reduceAfter": 0, "head": "ctc"},
    "labels": ["a", " "], "blankIndex": 0,
    "decoder": {"beamWidth": 2, "lmWeight": 0.5, "insertionBonus": 1, "endWeight": 0.1, "languageModel": "lm.bin"}}))
put("fuzz-config", "huge-values.json", json.dumps({
    "formatVersion": 1, "identifier": "x", "kind": "text",
    "features": {"scheme": "resampled-v1", "stepsPerLineHeight": 1e300},
    "network": {"weights": "w", "inputDim": 4, "hidden": 9223372036854775807, "layers": -1, "numClasses": 2, "reduceAfter": 64},
    "labels": ["a"], "blankIndex": 0, "decoder": {"beamWidth": 9223372036854775807, "lmWeight": 0, "insertionBonus": 0}}))

# --- recognizer (first byte: model and options, see Sources/fuzz-recognize) -----------------------
def rec(name, selector, src=None, text=None):
    body = open(os.path.join(ROOT, src), "rb").read() if src else text.encode()
    put("fuzz-recognize", name, bytes([selector]) + body)


rec("shapes-rectangle", 0x00, "Samples/shape-rectangle.json")
rec("shapes-arrow", 0x02, "Samples/shape-arrow.json")
rec("text-hello-lm", 0x05, "Tests/DigitalInkTests/Fixtures/formats/hello.json")
rec("text-there-nolm-beam2", 0x39, "Samples/there.json")
rec("text-inkml", 0x03, "Tests/DigitalInkTests/Fixtures/formats/hello.inkml")
rec("text-strokearrays", 0x07, "Tests/DigitalInkTests/Fixtures/formats/hello.strokes.json")
rec("text-dot", 0x01, text='{"strokes":[{"points":[{"x":5,"y":5}]}],"preContext":"the "}')
rec("shapes-line-area", 0x00, text='{"strokes":[{"points":[{"x":0,"y":0},{"x":100,"y":1}]}],"writingArea":{"width":200,"height":50}}')
print("seeds written to", CORPUS)


# --- writer profiles (WriterProfile+Data.swift: "INKWP\0\0\1", digest, r, H, C, minimum, learned, A, B, d) ---
def profile(r, h, c, minimum=50, learned=0, fill=0.0, tail=b""):
    head = b"INKWP\0\0\1" + bytes(range(32)) + struct.pack("<IIIIQ", r, h, c, minimum, learned)
    return head + struct.pack(f"<{r * h + c * r + c}f", *([fill] * (r * h + c * r + c))) + tail


put("fuzz-profile", "small.bin", profile(2, 3, 4))
put("fuzz-profile", "learned.bin", profile(1, 2, 2, minimum=0, learned=51, fill=0.25))
put("fuzz-profile", "header-only.bin", profile(1, 1, 1)[:64])
put("fuzz-profile", "trailing.bin", profile(1, 1, 1, tail=b"\0"))
put("fuzz-profile", "nan.bin", profile(1, 1, 1, fill=float("nan")))



# --- writer profiles, version 2 ("INKWP\0\0\2", digest, r, P, C, minimum, learned, P × (rows, columns), then each
# weight's A and B, then d): a change beside every weight ---
def profile2(r, shapes, c, minimum=50, learned=0, fill=0.0, tail=b""):
    head = b"INKWP\0\0\2" + bytes(range(32)) + struct.pack("<IIIIQ", r, len(shapes), c, minimum, learned)
    head += b"".join(struct.pack("<II", rows, cols) for rows, cols in shapes)
    n = sum(r * (rows + cols) for rows, cols in shapes) + c
    return head + struct.pack(f"<{n}f", *([fill] * n)) + tail


# The shapes of the small network the target folds a change into (2 inputs, 2 hidden, one layer, 3 classes).
SMALL = [(8, 2), (8, 2), (8, 2), (8, 2), (3, 8)]
put("fuzz-profile", "v2-small.bin", profile2(1, SMALL, 3, minimum=0, learned=60, fill=0.125))
put("fuzz-profile", "v2-other-shapes.bin", profile2(2, [(4, 3), (5, 1)], 2))
put("fuzz-profile", "v2-nan.bin", profile2(1, [(1, 1)], 1, fill=float("nan")))
put("fuzz-profile", "v2-trailing.bin", profile2(1, [(1, 1)], 1, tail=b"\0"))


# --- writer profiles, version 3: version 2 with "INKWP\0\0\3" and its check after d (pairs read, their words,
# word errors without a change, with one; u32 each) ---
def profile3(r, shapes, c, check=(50, 50, 8, 5), **kw):
    return b"INKWP\0\0\3" + profile2(r, shapes, c, **kw)[8:] + struct.pack("<IIII", *check)


put("fuzz-profile", "v3-small.bin", profile3(1, SMALL, 3, minimum=0, learned=60, fill=0.125))
put("fuzz-profile", "v3-no-gain.bin", profile3(1, SMALL, 3, check=(50, 50, 5, 5), minimum=0, learned=60, fill=0.125))
put("fuzz-profile", "v3-bad-check.bin", profile3(1, [(1, 1)], 1, check=(0, 6, 0, 0)))
