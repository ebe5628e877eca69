#!/usr/bin/env python3
"""Carry a cover letter's own text (subject and blurb) across regeneration.

git format-patch --cover-letter writes "*** SUBJECT HERE ***" and
"*** BLURB HERE ***" placeholders followed by a generated tail (shortlog,
diffstat, base-commit).  The export keeps the human part of the old cover
letter and lets git regenerate the rest.

  cover.py extract OLD PLACEHOLDER   print the subject line, then the blurb
  cover.py fill PLACEHOLDER TEXT     print PLACEHOLDER with TEXT filled in

set_base and read_base give a cover letter the base-commit and
prerequisite-patch-id lines of another tree (mbox.py), and the
prerequisite-message-id of a posting it needs.
"""
import re
import sys

SUBJ = "*** SUBJECT HERE ***"
BLURB = "*** BLURB HERE ***\n"
BASE_LINE = re.compile(
    r"^(base-commit|prerequisite-patch-id|prerequisite-message-id): ")


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def split(text):
    head, sep, body = text.partition("\n\n")
    if not sep:
        sys.exit("cover.py: no header/body separator in cover letter")
    return head + sep, body


def strip_base(text):
    """TEXT without its closing base-commit and prerequisite-patch-id
    lines: they name the tree the series was applied to (a user's own, one
    that already has the prerequisites), not the series."""
    lines = text.split("\n")
    while lines and (lines[-1] == "" or BASE_LINE.match(lines[-1])):
        lines.pop()
    return "\n".join(lines)


def set_base(text, lines):
    """TEXT with LINES (base-commit, prerequisite-patch-id) in place of its
    own closing ones: those of the tree the series was last applied to."""
    body = strip_base(text)
    rest = text[len(body):]
    sep = rest[:len(rest) - len(rest.lstrip("\n"))]
    if not BASE_LINE.match(rest.lstrip("\n")):
        sep = "\n\n\n"   # none yet: as git format-patch --base writes them
    return body + sep + "".join(l + "\n" for l in lines)


def read_base(path):
    lines = [l for l in read(path).split("\n") if l]
    if not lines or not lines[0].startswith("base-commit: ") or \
            not all(BASE_LINE.match(l) for l in lines):
        sys.exit("cover.py: %s: not base-commit and prerequisite-patch-id "
                 "(or -message-id) lines" % path)
    return lines


def extract(old, placeholder):
    ohead, obody = split(read(old))
    phead, pbody = split(read(placeholder))
    if not pbody.startswith(BLURB):
        sys.exit("cover.py: placeholder cover letter has no blurb marker")
    tail = strip_base(pbody[len(BLURB):])
    obody = strip_base(obody)
    if not obody.endswith(tail):
        sys.exit("cover.py: %s: the generated part (shortlog, diffstat) "
                 "does not match its patches; regenerate it with the "
                 "export" % old)
    blurb = obody[:len(obody) - len(tail)]
    pre, _, post = phead.partition(SUBJ)
    if not (ohead.startswith(pre) and ohead.endswith(post)):
        sys.exit("cover.py: %s: headers differ from what git writes "
                 "for these patches beyond the subject" % old)
    subject = ohead[len(pre):len(ohead) - len(post)]
    if "\n" in subject:
        sys.exit("cover.py: %s: the subject must be one line" % old)
    sys.stdout.write(subject + "\n" + blurb)


def fill(placeholder, textfile):
    subject, _, blurb = read(textfile).partition("\n")
    text = read(placeholder)
    if SUBJ not in text or BLURB not in text:
        sys.exit("cover.py: placeholder cover letter lacks its markers")
    text = text.replace(SUBJ, subject, 1).replace(BLURB, blurb, 1)
    sys.stdout.write(text)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "fill":
        fill(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
