"""The model card of a language on a script kit network (Cyrillic, Greek, Korean, Hebrew) (``latin export --charset cyrillic`` writes it;
``scripts evaluate models --card`` adds the figures after it)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from inkrec_training import charset
from inkrec_training.features import FEATURE_SCHEME
from inkrec_training.writing import sources

CYRILLIC_TRAINING_NOTE = (
    "Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the 93 Cyrillic characters,\n"
    "  each letter written like a Latin one starting from that letter's row, the others from the mean row, biases\n"
    "  lowered by 2) on real English UNIPEN ink (40% of the mix) and the script kit's Cyrillic ink (60%: generated\n"
    "  words 60%, generated lines of two to four words 30%, words of real letters 10%), with smooth elastic warps on\n"
    "  half of the inks, 64 minutes on this 2-core CPU with one torch thread: `latin train --charset cyrillic\n"
    "  --scripts ru,uk,bg,mk,sr --mix-scripts 0.6 --init-from Models/latn-bilstm96x3/weights.safetensors --minutes 64\n"
    "  --warmup-steps 0 --lr 8e-4 --warp 0.5`; the moving average of the weights exported.")


GREEK_TRAINING_NOTE = (
    "Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the 69 Greek characters,\n"
    "  each letter written like a Latin one starting from that letter's row, the others from the mean row, biases\n"
    "  lowered by 2) on real English UNIPEN ink (40% of the mix) and the script kit's Greek ink (60%: generated\n"
    "  words 60%, generated lines of two to four words 30%, words of real letters 10%), with smooth elastic warps on\n"
    "  half of the inks, 80 minutes on this 2-core CPU with one torch thread: `latin train --charset greek\n"
    "  --scripts el --mix-scripts 0.6 --init-from Models/latn-bilstm96x3/weights.safetensors --minutes 80\n"
    "  --warmup-steps 0 --lr 8e-4 --warp 0.5`; the moving average of the weights exported.")


@dataclass(frozen=True)
class ScriptNetwork:
    """What a script kit network's cards, README lines and export say about it: one per character set."""
    charset: str            # inkrec_training.charset set (and latin export --charset)
    script: str             # its name in prose
    languages: tuple        # wordfreq codes of its models
    added: str              # what its head adds to the Latin network's characters
    generated: str          # how its generated ink is made (a card's first bullet)
    real_letters: str       # the letters built from real UNIPEN strokes
    sources: tuple          # writing.sources entries named in the cards
    training_note: str
    letter_forms: str       # the letters a generated word is written from, in a phrase (cards, README table)
    why: str = ""           # the section of Docs/scripts.md that says why it has a network of its own


CYRILLIC = ScriptNetwork(
    "cyrillic", "Cyrillic", ("ru", "uk", "bg", "mk", "sr"),
    "the 46 Cyrillic letters of Russian, Ukrainian,\nBulgarian, Macedonian and Serbian in both cases, and №",
    """every Cyrillic letter is a template this
  project drew as control points in stroke order, in the handwritten forms people write (upright school
  cursive lowercase: т like m, и like u, д and з with descenders; print-like capitals), most letters in two
  or three variants (`Training/inkrec_training/writing/cyrillic.py`, pictures in `Docs/scripts.md`). The
  writer model (`writing/writer.py`, the one the Japanese and Chinese models are trained with) writes words
  and short lines of the five languages with a writer's slant, size, spacing, baseline drift, joins, stroke
  jitter and pen speed.""",
    "а е о р с у х к м т и\n  п і ј ѕ",
    (sources.UNIPEN, sources.DRAWN, sources.WORDFREQ), CYRILLIC_TRAINING_NOTE,
    "the drawn letters (every form, as in training)")

GREEK = ScriptNetwork(
    "greek", "Greek", ("el",),
    "the 69 Greek letters in both cases\n(final ς, tonos and dialytika included)",
    """every Greek letter is a single-line Hershey
  glyph (the simplex Greek font's centre lines, in stroke order), with a final ς and a θ drawn by this project
  and tonos and dialytika added as pen marks (`Training/inkrec_training/writing/greek.py`, pictures in
  `Docs/scripts.md`). The writer model (`writing/writer.py`, the one the Japanese and Chinese models are
  trained with) writes words and short lines with a writer's slant, size, spacing, baseline drift, joins,
  stroke jitter and pen speed.""",
    "α ο ι κ ν ρ τ υ χ and\n  capitals",
    (sources.UNIPEN, sources.HERSHEY, sources.DRAWN, sources.WORDFREQ), GREEK_TRAINING_NOTE,
    "the Hershey Greek letters (ς and θ drawn here, tonos and dialytika as late pen marks, as in training)")

KOREAN_TRAINING_NOTE = (
    "Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the 67 conjoining jamo, each\n"
    "  starting from the mean row, biases lowered by 2) on real English UNIPEN ink (40% of the mix) and the script\n"
    "  kit's Korean ink (60%: generated eojeol 70%, generated lines of two to four eojeol with numbers and Latin\n"
    "  words 30%), with smooth elastic warps on half of the inks: 55 minutes on one core of this 2-core CPU beside\n"
    "  the syllable network it was measured against (`Docs/scripts.md`, \"Korean\"; `latin train --charset hangul\n"
    "  --scripts ko --mix-scripts 0.6 --init-from Models/latn-bilstm96x3/weights.safetensors --minutes 55\n"
    "  --warmup-steps 0 --lr 8e-4 --warp 0.5 --workers 0 --threads 1`), then 40 minutes more on the same mix\n"
    "  (`--minutes 40 --lr 5e-4 --restart-schedule --workers 1`); the moving average of the weights exported.")

KOREAN = ScriptNetwork(
    "hangul", "Korean", ("ko",),
    "the 67 Hangul conjoining jamo: 19 initial consonants, 21 vowels and 27 final consonants,\nfrom which the engine "
    "composes the syllables after decoding, `textForm: hangul-jamo`",
    """every syllable is built from 24 jamo this
  project drew as strokes in the school stroke order (tense consonants, clusters and compound vowels composed of
  them), placed in one of the six block layouts (`Training/inkrec_training/writing/hangul.py`, pictures in
  `Docs/scripts.md`). The writer model (`writing/writer.py`, the one the Japanese and Chinese models are
  trained with) writes eojeol and short lines with a writer's slant, size, spacing, baseline drift, joins,
  stroke jitter and pen speed.""",
    "",
    (sources.DRAWN, sources.WORDFREQ), KOREAN_TRAINING_NOTE,
    "the drawn jamo in the six block layouts (as in training)", '"Korean": jamo against syllables')

HEBREW_TRAINING_NOTE = (
    "Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the 31 Hebrew characters, each\n"
    "  starting from the mean row, biases lowered by 2) on real English UNIPEN ink (40% of the mix) and the script\n"
    "  kit's Hebrew ink (60%: generated words 70%, generated lines of two to four words 30%), with smooth elastic\n"
    "  warps on half of the inks, 80 minutes on one core of this 2-core CPU: `latin train --charset hebrew\n"
    "  --scripts he --mix-scripts 0.6 --init-from Models/latn-bilstm96x3/weights.safetensors --minutes 80\n"
    "  --warmup-steps 0 --lr 8e-4 --warp 0.5 --threads 1 --workers 1`; the moving average of the weights exported.")

HEBREW = ScriptNetwork(
    "hebrew", "Hebrew", ("he",),
    "the 27 Hebrew letters (22 and the 5 final forms), geresh, gershayim, maqaf and ₪;\nthe model reads right "
    "to left (`direction: rtl`) and outputs text in logical order",
    """every Hebrew letter is a template this
  project drew as control points in stroke order, in the cursive forms people write by hand (not the square
  letters of print: א like lc, מ like N, ש like e, the final forms with their descenders;
  `Training/inkrec_training/writing/hebrew.py`, pictures in `Docs/scripts.md`). The writer model
  (`writing/writer.py`) writes words and short lines right to left with a writer's slant, size, spacing,
  baseline drift, joins, stroke jitter and pen speed.""",
    "",
    (sources.DRAWN, sources.WORDFREQ), HEBREW_TRAINING_NOTE,
    "the drawn cursive letters (as in training)", '"Hebrew: right to left"')

ARABIC_TRAINING_NOTE = (
    "Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the 73 Arabic-script\n"
    "  characters, each starting from the mean row, biases lowered by 2) on real English UNIPEN ink (40% of the mix)\n"
    "  and the script kit's Arabic, Persian and Urdu ink (60%: generated words 70%, generated lines of two to four\n"
    "  words 30%, the three languages drawn alike), with smooth elastic warps on half of the inks, on one core of\n"
    "  this 2-core CPU: 46 minutes at learning rate 8e-4 (`latin train --charset arabic --scripts ar,fa,ur\n"
    "  --mix-scripts 0.6 --init-from Models/latn-bilstm96x3/weights.safetensors --warmup-steps 0 --lr 8e-4 --warp 0.5\n"
    "  --threads 1 --workers 1`), then 100 minutes more in a fresh schedule from 6e-4 (`--minutes 100\n"
    "  --restart-schedule --lr 6e-4`); the moving average of the weights exported.")

ARABIC = ScriptNetwork(
    "arabic", "Arabic script", ("ar", "fa", "ur"),
    "the 50 letters of Arabic, Persian and Urdu, Arabic-Indic and Persian digits and ، ؛ ؟;\nthe models read right "
    "to left (`direction: rtl`) and output text in logical order, never presentation forms",
    """every letter's isolated, initial, medial and
  final form (and lam-alef) is the centre line of its Noto Naskh Arabic glyph (SIL OFL), traced once from the
  font; a word is cut into connected pieces by the letters' joining classes, each piece's body written right to
  left in one or a few pen strokes, its dots and marks after the piece or after the whole word
  (`Training/inkrec_training/writing/arabic.py`, pictures in `Docs/scripts.md`). These are printed Naskh shapes
  joined by a rule, not anyone's handwriting. The writer model (`writing/writer.py`) writes words and short lines
  right to left with a writer's slant, size, spacing, baseline drift, stroke jitter and pen speed.""",
    "",
    (sources.NOTO_NASKH, sources.WORDFREQ), ARABIC_TRAINING_NOTE,
    "the traced Naskh joining forms (as in training)", '"Arabic, Persian and Urdu"')

def _gpu_note(charset_name: str, script: str, code: str, steps: int, minutes: float, beside: str) -> str:
    """How a script network trained in one call on a lent GPU machine came about (``gpu_once.sh scripts``)."""
    n_added = len(charset.SETS[charset_name]) - len(charset.LATIN)
    return (
        f"Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the {n_added} {script}\n"
        "  characters, each starting from the mean row, biases lowered by 2) on real English UNIPEN ink (40% of the mix)\n"
        f"  and the script kit's {script} ink (60%: generated words 70%, generated lines of two to four words 30%), with\n"
        f"  smooth elastic warps on half of the inks, in one call on a lent NVIDIA H200 GPU beside the {beside} run:\n"
        f"  {minutes:.1f} minutes, {steps:,} batches of 20,000 feature frames drawn by 7 processes\n"
        "  (`Training/gpu/gpu_once.sh scripts 535 \"taml:tamil:ta thai:thai:th\" --init-from\n"
        "  Training/work/scripts-gpu/start/weights.safetensors --mix-scripts 0.6 --warmup-steps 0 --lr 1.5e-3 --warp 0.5\n"
        f"  --frames 20000 --replay 2`, i.e. `latin train --charset {charset_name} --scripts {code} --device cuda\n"
        "  --workers 7` on the data of `latin data --languages '' --scripts ta,th`); the moving average of the weights\n"
        "  exported.")


def _indic_network(charset_name: str, script: str, code: str, added: str, order: str, source, minutes: int,
                   lr: str = "8e-4", training_note: str = "", why: str = '"Hindi and Bengali"') -> ScriptNetwork:
    """A script kit network of an Indic script whose words are shaped Noto Sans syllables (``writing/indic.py``),
    trained in one schedule of ``minutes`` from the Latin network (``latin train``) unless ``training_note``
    says otherwise."""
    n_added = len(charset.SETS[charset_name]) - len(charset.LATIN)
    font = f"Noto Sans {script}"
    generated = f"""every syllable is shaped once by HarfBuzz from
  {font} (SIL OFL) and its glyphs' outlines traced to centre lines{order}; a word is written syllable by
  syllable left to right (`Training/inkrec_training/writing/{charset_name}.py` and `writing/indic.py`, pictures in
  `Docs/scripts.md`). These are printed shapes written in a pen order by rule, not anyone's handwriting. The
  writer model (`writing/writer.py`) writes words and short lines with a writer's slant, size, spacing,
  baseline drift, stroke jitter and pen speed."""
    note = (
        f"Trained from the shared Latin network latn-bilstm96x3 1.3.0 (its head grown by the {n_added} {script}\n"
        "  characters, each starting from the mean row, biases lowered by 2) on real English UNIPEN ink (40% of the mix)\n"
        f"  and the script kit's {script} ink (60%: generated words 70%, generated lines of two to four words 30%), with\n"
        f"  smooth elastic warps on half of the inks, {minutes} minutes on one core of this 2-core CPU beside another\n"
        f"  training run: `latin train --charset {charset_name} --scripts {code} --mix-scripts 0.6\n"
        f"  --init-from Models/latn-bilstm96x3/weights.safetensors --minutes {minutes} --warmup-steps 0 --lr {lr}\n"
        "  --warp 0.5 --threads 1 --workers 1`; the moving average of the weights exported.")
    return ScriptNetwork(charset_name, script, (code,), added, generated, "", (source, sources.HARFBUZZ, sources.WORDFREQ),
                         training_note or note, f"the traced {font} syllables (as in training)", why)


def _trained_on(spec: ScriptNetwork, more: str) -> ScriptNetwork:
    """``spec`` whose training note goes on with ``more`` where it said its weights were exported."""
    note = spec.training_note.replace("; the moving average of the weights exported.", more)
    assert note != spec.training_note
    return dataclasses.replace(spec, training_note=note)


def _continued_on_gpu(spec: ScriptNetwork, name: str, steps: int, minutes: float, beside: str) -> ScriptNetwork:
    """``spec`` whose 1.0.0 network was trained on, in one short call on a lent GPU machine
    (``gpu_once.sh scripts`` with NAME:CHARSET:LANGS:INIT), into the shipped one."""
    return _trained_on(spec,
        f" (1.0.0). Then trained on from those\n  weights in one call on a lent NVIDIA H200 GPU beside the {beside} run: "
        f"{minutes:.1f} minutes, {steps:,} batches of\n  20,000 feature frames, the same mix (`Training/gpu/gpu_once.sh "
        f"scripts 245 \"{name}:{spec.charset}:{spec.languages[0]}:<1.0.0\n  weights> …\" --mix-scripts 0.6 "
        "--warmup-steps 0 --lr 1e-3 --warp 0.5 --frames 20000 --replay 2\n  --checkpoint-minutes 1.5`); the moving "
        "average of the weights exported (1.1.0).")


def _embedded_on_cpu(spec: ScriptNetwork, net: str, steps: int, beside: str) -> ScriptNetwork:
    """``spec`` whose 1.0.0 network was trained on for 65 minutes on one core with numbers and Latin words inside
    a share of its right-to-left lines (``latin train --embedded-share``), into the shipped 1.1.0 one."""
    return _trained_on(spec,
        " (1.0.0). Then trained on from those\n  weights for 65 minutes more "
        f"({steps:,} steps) on one core beside the {beside} run, the same mix with a number or a Latin\n  word "
        "written left to right inside 30% of the generated lines (`latin train --init-from\n  "
        f"Models/{net}/weights.safetensors --minutes 65 --warmup-steps 0 --lr 6e-4 --warp 0.5 --threads 1\n  "
        "--workers 1 --embedded-share 0.3`); the moving average of the weights exported (1.1.0).")


HEBREW = _embedded_on_cpu(HEBREW, "hebr-bilstm96x3", 3233, "Arabic")
ARABIC = _embedded_on_cpu(ARABIC, "arab-bilstm96x3", 3003, "Hebrew")

DEVANAGARI = _indic_network(
    "devanagari", "Devanagari", "hi",
    "Hindi's 81 Devanagari characters (vowels, consonants, nukta\nletters, vowel signs, virama, candrabindu, anusvara, "
    "visarga, avagraha, digits, danda and double danda)",
    " (the headline band apart): the\n  bodies first, ि after its consonant though it stands left of it, marks below and "
    "above, and the\n  headline last in one stroke across the word", sources.NOTO_DEVANAGARI, 90)
DEVANAGARI = _continued_on_gpu(DEVANAGARI, "deva", 2133, 3.1, "Bengali")

BENGALI = _indic_network(
    "bengali", "Bengali", "bn",
    "Bengali's 71 characters (vowels, consonants, khanda ta, vowel\nsigns, hasanta, nukta, candrabindu, anusvara, visarga, "
    "digits, danda and double danda)",
    " (the headline band apart): the\n  bodies first, pre-base signs (ি ে ৈ) after their consonant though they stand "
    "left of it, marks below\n  and above, and the headline last", sources.NOTO_BENGALI, 90)
BENGALI = _continued_on_gpu(BENGALI, "beng", 2013, 3.0, "Hindi")

TAMIL = _indic_network(
    "tamil", "Tamil", "ta",
    "Tamil's 59 characters (vowels, consonants with the Grantha ones, aytham, vowel signs,\n"
    "the au length mark, pulli and digits)",
    ": a syllable's bodies left\n  to right, a sign that stands left of its consonant (ெ ே ை) after it, the pulli last",
    sources.NOTO_TAMIL, 0, training_note=_gpu_note("tamil", "Tamil", "ta", 4850, 7.9, "Thai"), why='"Tamil and Thai"')

THAI = ScriptNetwork(
    "thai", "Thai", ("th",),
    "Thai's 84 characters (consonants, leading, following, above and below vowels, sara am,\n"
    "tone marks, thanthakhat and the other signs, mai yamok, paiyannoi, digits and ฿); Thai writes no spaces between "
    "words,\nand the model's language model reads across them (`contextSeparator: \"\"`)",
    """every cluster (a leading vowel, a consonant and the vowels
  and tone marks stacked on it) is shaped once by HarfBuzz from Noto Looped Thai (SIL OFL; the looped letters
  Thai children learn, not the loopless print of signs) and its glyphs' outlines traced to centre lines; a
  hand writes a cluster's bodies left to right, then the marks below, then those above from the lowest up (the
  tone mark after the vowel it stands on), and the words of a phrase run on without spaces
  (`Training/inkrec_training/writing/thai.py` and `writing/indic.py`, pictures in `Docs/scripts.md`). These are
  printed shapes written in a pen order by rule, not anyone's handwriting. The writer model (`writing/writer.py`)
  writes words and short phrases with a writer's slant, size, spacing, baseline drift, stroke jitter and pen
  speed.""",
    "", (sources.NOTO_LOOPED_THAI, sources.HARFBUZZ, sources.THAI_NATIONAL_CORPUS),
    _gpu_note("thai", "Thai", "th", 5381, 7.9, "Tamil"),
    "the traced Noto Looped Thai clusters (as in training)", '"Tamil and Thai"')

SCRIPT_NETWORKS = {n.charset: n for n in (CYRILLIC, GREEK, KOREAN, HEBREW, ARABIC, DEVANAGARI, BENGALI, TAMIL, THAI)}


def script_card(spec: ScriptNetwork, identifier: str, english: str, code: str, net: str, cfg: dict, lm_bytes: int,
                weights_bytes: int, history: list, version: str, training_note: str) -> str:
    """The card of a language on a script kit network (``spec``), up to the figures section."""
    last = history[-1] if history else {}
    hist = (f"\n  At the end of training (step {last.get('step')}, {last.get('minutes', 0):.0f} minutes), greedy: "
            f"English words of held-out UNIPEN writers CER {last.get('ema_cer', last.get('cer', float('nan'))):.3f}, "
            f"word accuracy {last.get('ema_word_acc', last.get('word_acc', float('nan'))):.3f}; generated held-out "
            f"words of the {_count(len(spec.languages))} CER {last.get('lang_cer', float('nan')):.3f}, word accuracy "
            f"{last.get('lang_word_acc', float('nan')):.3f}." if last else "")
    n_chars = len(charset.SETS[spec.charset])
    real_words = " or from words composed of real letters" if spec.real_letters else ""
    why = spec.why or f'"{spec.script}", "Its own network"'
    real = (f",\n  and words built from the isolated letters whose handwritten form {spec.script} shares ({spec.real_letters}: "
            "`writing/homoglyphs.py`)." if spec.real_letters else
            f"; no {spec.script} letter is written like a Latin one, so no real ink of {spec.script} exists here.")
    used = "\n".join(f"  - {s.card_line()}" for s in spec.sources)
    shared = (f"the {spec.script} one, shared by {', '.join(spec.languages[:-1])} and {spec.languages[-1]}"
              if len(spec.languages) > 1 else f"the {spec.script} one")
    return f"""# Model card: {identifier} ({english})

Handwriting recognizer for {english}, version {version}: the network `{net}` (the Latin network's
{len(charset.LATIN)} characters, {spec.added}) with a character language model, for the DigitalInk engine.

## What is real and what is generated
- **Generated ink** (nobody wrote {english} for this model): {spec.generated} **Every {english} figure in this card comes from generated ink{real_words}**; no real {english}
  handwriting was available to train or measure it.
- **Real ink**: UNIPEN train_r01_v07 (International Unipen Foundation, CC BY 4.0): English words, lines
  and isolated characters of the training writers (they keep the Latin letters, digits and punctuation){real}
- Letter and text sources, with their licences:
{used}
- **Language model**: {_lm_line(code, lm_bytes)}
- No research-only data (IAM-OnDB, CASIA, …) is used.

## Network ({shared})
- `../{net}/weights.safetensors` ({weights_bytes / 1e6:.2f} MB): features `{FEATURE_SCHEME}`, {cfg['layers']}
  bidirectional LSTM layers of {cfg['hidden']} units, frames stacked in pairs after layer 1, a CTC head over
  {n_chars} characters + blank; 8-bit weights with a scale per row (activations quantized per frame),
  `config.json` `precision: int8`. It also reads Latin-script words (names, units, brands in {spec.script} text).
- {training_note}{hist}
- Why a network of its own and not the shared Latin one: `Docs/scripts.md` ({why}).
"""


def _lm_line(code: str, lm_bytes: int) -> str:
    """The card's sentence on the language model."""
    if code == "th":
        return (f"`lm.bin` ({lm_bytes / 1e6:.2f} MB, INKLM2, `python3 -m inkrec_training scripts lm thai`): character\n"
                "  n-grams (order 6) over running text modelled as Thai is written: words of the Thai National Corpus word\n"
                "  frequencies (CC0 1.0, `writing/data/thai_words.tsv.gz`) drawn by frequency and joined without spaces into\n"
                "  phrases, one space between phrases, with numbers and a few English words (wordfreq, data CC BY-SA 4.0);\n"
                "  the decoder reads it across the boundary of two written words (`contextSeparator: \"\"`).")
    return (f"`lm.bin` ({lm_bytes / 1e6:.2f} MB, INKLM2, `python3 -m inkrec_training latin lm --language {code}`):\n"
            f"  character n-grams over running text modelled from wordfreq's {_lm_source(code)}\n"
            "  (wordfreq data CC BY-SA 4.0, code Apache-2.0), with the casing, quotation marks and punctuation of running text.")


def _lm_source(code: str) -> str:
    if code == "sr":
        return "sh word frequencies transliterated to Cyrillic (`writing/text.py`)"
    if code == "ko":
        return ("ko morpheme frequencies made into eojeol as Korean is spaced (a noun\n  with its particles and the "
                "forms of 하다/되다, a verb stem with its endings: `lm/languages.py` `korean_words`), written in the "
                "network's\n  conjoining jamo (order 7)")
    return code + " word frequencies"


def _count(n: int) -> str:
    return "language" if n == 1 else f"{['', 'one', 'two', 'three', 'four', 'five', 'six'][n]} languages"
