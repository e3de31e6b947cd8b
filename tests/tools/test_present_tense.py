"""The documents that say what the code does state the present: no lab notes. What happened
(a machine that was replaced, a run that was lost, what was tried on a borrowed GPU, what a
change "now" does) belongs to docs/history/, and a date in running text belongs to a figure
("measured 2026-11-30 on ...") or to a table or heading that captions one.

The checker reads the Markdown a reader meets first: README.md, docs/*.md (not docs/history/),
models/README.md, training/README.md and tools/README.md. Code (fenced or indented blocks,
`inline`) and link targets are not prose and are not read. A legitimate use of a flagged phrase
goes in ALLOWED with the file, a fragment of its sentence and why; an entry that allows nothing
fails, so the list stays short and true."""
import glob
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

PRESENT_TENSE_DOCS = ["README.md", "docs/*.md", "models/README.md", "training/README.md",
                      "tools/README.md"]

# (pattern, why it is narration). Matched case-insensitively in prose and in table cells.
NARRATION = [
    (r"\b(?:this|last|that|the previous|an earlier) session\b",
     "a working session is history, not a property of the code"),
    (r"\b(?:yesterday|tonight|earlier today|later today|this (?:morning|afternoon|evening))\b",
     "a day relative to when it was written"),
    (r"\bwe (?:tried|found|measured|ran|made|decided|saw|changed|learnt|learned)\b",
     "a diary's first person"),
    (r"\b(?:was|were) (?:lost|replaced)\b", "an event of the past"),
    (r"\b(?:lent|loan|loans|loaned|borrowed)\b",
     "a borrowed machine's story: the docs speak of a GPU server an operator rents"),
    (r"\bto this work\b", "the work that wrote the doc is history"),
    (r"(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )(?<!\bwas )(?<!\bwere )\bused to\b",
     "what the code did before: history"),
    (r"(?<!\bis )(?<!\bare )\bnow\b(?![-(])",
     "a change narrated ('now does'): say what the code does"),
    (r"\b(?:that )?happened (?:once|twice|again)\b|\bthat happened\b", "an event of the past"),
    (r"\b(?:an|the) earlier (?:machine|form|version|run|build|script|cpu)\b|\bearlier runs\b",
     "an earlier state of the project: history"),
    (r"\bthe (?:first|second) run\b|\ba first run\b", "the story of a run: history"),
    (r"\bthe issue's\b|\bissue \d+\b", "the tracker's story: say what the target is and why"),
    (r"\b(?:until|since) \d{4}-\d\d-\d\d\b", "a dated change of state: history"),
]
NARRATION = [(re.compile(p, re.IGNORECASE), why) for p, why in NARRATION]

MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|"
          "December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")
DATE = re.compile(r"\b\d{4}-\d\d-\d\d\b|\b(?:%s)\.? \d{1,2}\b|\b\d{1,2} (?:%s)\b"
                  % (MONTHS, MONTHS))
# The word that makes a date a figure's date, anywhere in the date's sentence.
FIGURE_DATE = re.compile(r"\bmeasured\b", re.IGNORECASE)

# (file, fragment of the sentence, why the phrase is right there).
ALLOWED = [
    ("docs/gpu-engine.md", "pull request 1101, comment of",
     "the date of a cited source, not of this project"),
]

# Docs this test leaves alone (none today).
NOT_CHECKED = set()

SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[A-Z*(\[`])")


def prose_blocks(text):
    """(first line number, lines) of each block of prose: paragraphs, list items, headings and
    table rows, without fenced or indented code."""
    blocks, current, start, fenced = [], [], 0, False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            line = ""
        if fenced:
            continue
        new_item = re.match(r"\s*(?:[-*] |\d+\. |#|\|)", line)
        if not line.strip() or new_item:
            if current:
                blocks.append((start, current))
            current = []
            if not line.strip():
                continue
        if not current:
            start = number
        current.append(line)
        if line.startswith(("#", "|")):
            blocks.append((start, current))
            current = []
    if current:
        blocks.append((start, current))
    return [(start, lines) for start, lines in blocks
            if not all(line.startswith("    ") for line in lines)]


def strip_code(line):
    """The text with its inline code (also across lines), link targets and HTML comments
    blanked, keeping its length."""
    blank = lambda match: " " * len(match.group(0))  # noqa: E731
    line = re.sub(r"`[^`]*`", blank, line)
    line = re.sub(r"\]\([^)]*\)", blank, line)
    return re.sub(r"<!--.*?-->", blank, line)


def sentences(start, lines):
    """(line number, sentence) of a block without its code, the line being where the sentence
    starts."""
    joined, line_of = "", []
    for offset, line in enumerate(lines):
        joined += line + " "
        line_of += [start + offset] * (len(line) + 1)
    joined = strip_code(joined)
    found, begin = [], 0
    for end in [m.end() for m in SENTENCE_END.finditer(joined)] + [len(joined)]:
        if joined[begin:end].strip():
            found.append((line_of[begin], joined[begin:end].strip()))
        begin = end
    return found


def narration(text, path="", allowed=()):
    """(line, matched text, why) for each piece of narration in a Markdown text; `allowed` holds
    (path, fragment, why) entries whose sentence may keep its flagged phrase."""
    found = []
    for start, lines in prose_blocks(text):
        is_table = lines[0].startswith("|")
        is_heading = lines[0].startswith("#")
        for line, sentence in sentences(start, lines):
            if any(entry[0] == path and entry[1] in sentence for entry in allowed):
                continue
            for pattern, why in NARRATION:
                for match in pattern.finditer(sentence):
                    found.append((line, match.group(0), why))
            if is_table or is_heading or FIGURE_DATE.search(sentence):
                continue
            for match in DATE.finditer(sentence):
                found.append((line, match.group(0),
                              "a date in running text: name it as a figure's ('measured DATE on"
                              " MACHINE'), in a table or caption, or move the story to"
                              " docs/history/"))
    return found


def present_tense_docs():
    paths = set()
    for pattern in PRESENT_TENSE_DOCS:
        paths.update(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    return sorted(paths - NOT_CHECKED)


class TheChecker(unittest.TestCase):
    """The checker itself, on texts written for it."""

    NARRATED = "\n".join([
        "# The engine on a GPU",
        "",
        "No GPU was lent to this work, so the sim stands in. The lab was lost on 2026-11-27",
        "and made again; this session's machine is faster. The evaluator now gathers the",
        "logits on the GPU.",
        "",
        "- The whole row used to cross PCIe.",
        "",
        "## zhbot-net-2 (the default until 2026-11-29)",
    ])

    PRESENT = "\n".join([
        "# The engine on a GPU",
        "",
        "The evaluator gathers the legal moves' logits on the GPU and copies them back with the",
        "value. Measured 2026-11-27 on an NVIDIA H100: 1.52x at batch 512.",
        "",
        "| GPU | date | nodes/s |",
        "|---|---|---|",
        "| H100 | 2026-11-27 | 198 419 |",
        "",
        "### On an NVIDIA H100 (2026-11-27)",
        "",
        "```sh",
        "git log --since 2026-11-27   # what changed since, used to be slow",
        "```",
        "",
        "    tools/measure/quiet.sh match --note 'this session'",
        "",
        "A model file is used to calibrate; the book is queried with `now` and [a link](x#now),",
        "and `a span that runs over the line, with",
        "this session in it`.",
    ])

    def test_narration_is_found_line_by_line(self):
        found = narration(self.NARRATED)
        words = {(line, text.lower()) for line, text, _ in found}
        self.assertIn((3, "lent"), words)
        self.assertIn((3, "to this work"), words)
        self.assertIn((3, "was lost"), words)
        self.assertIn((3, "2026-11-27"), words)  # a date in running text, no figure
        self.assertIn((3, "this session"), words)  # the sentence starts on line 3
        self.assertIn((4, "now"), words)
        self.assertIn((7, "used to"), words)
        self.assertIn((9, "until 2026-11-29"), words)

    def test_the_present_passes(self):
        self.assertEqual(narration(self.PRESENT), [])

    def test_a_month_day_date_in_running_text_is_found(self):
        found = narration("The match ran on November 29 and again on 30 Nov.\n")
        self.assertEqual([text for _, text, _ in found], ["November 29", "30 Nov"])

    def test_an_allowed_sentence_keeps_its_phrase_and_only_it(self):
        text = "The search starts with the clock as it stands now. The rule now applies.\n"
        allowed = [("docs/x.md", "with the clock as it stands now", "the moment of the search")]
        found = narration(text, "docs/x.md", allowed)
        self.assertEqual([(line, word) for line, word, _ in found], [(1, "now")])
        self.assertEqual(len(narration(text, "docs/y.md", allowed)), 2)


class TheTree(unittest.TestCase):
    """The repository's present-tense documents."""

    def test_no_present_tense_doc_narrates(self):
        docs = present_tense_docs()
        self.assertIn("README.md", docs)
        self.assertIn("docs/performance.md", docs)
        self.assertFalse([d for d in docs if d.startswith("docs/history/")])
        problems = []
        for path in docs:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                for line, text, why in narration(f.read(), path, ALLOWED):
                    problems.append("%s:%d: '%s': %s" % (path, line, text, why))
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_every_allowed_entry_allows_something(self):
        for entry in ALLOWED:
            with self.subTest(path=entry[0], fragment=entry[1]):
                with open(os.path.join(ROOT, entry[0]), encoding="utf-8") as f:
                    text = f.read()
                self.assertGreater(len(narration(text, entry[0])),
                                   len(narration(text, entry[0], [entry])),
                                   "%s: '%s' allows nothing: drop the entry" % entry[:2])


if __name__ == "__main__":
    unittest.main()
