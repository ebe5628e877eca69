#!/usr/bin/env python3
"""Write series/ as one mbox, threaded the way git send-email threads a
series (every patch a reply to the cover letter), ready for git am or a
mail client.  Message-IDs are derived from the patch contents.

  mbox.py OUT SERIES_DIR
"""
import glob
import hashlib
import os
import sys


def main():
    out, series = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(series, "[0-9][0-9][0-9][0-9]-*.patch")))
    if not files:
        sys.exit("mbox.py: no patches in %s" % series)
    texts = [open(f, encoding="utf-8").read() for f in files]
    tag = hashlib.sha256("".join(texts).encode()).hexdigest()[:12]
    ids = ["<swapq-%s-%d@localhost>" % (tag, n) for n in range(len(files))]
    parts = []
    for n, text in enumerate(texts):
        head, sep, body = text.partition("\n\n")
        if not sep or not head.startswith("From "):
            sys.exit("mbox.py: %s is not a format-patch file" % files[n])
        head += "\nMessage-ID: %s" % ids[n]
        if n and os.path.basename(files[0]).startswith("0000-"):
            head += "\nIn-Reply-To: %s\nReferences: %s" % (ids[0], ids[0])
        # mboxrd: quote body lines that would read as a message separator.
        body = "".join(">" + l if l.lstrip(">").startswith("From ") else l
                       for l in body.splitlines(True))
        parts.append(head + sep + body + ("" if body.endswith("\n") else "\n"))
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))


if __name__ == "__main__":
    main()
