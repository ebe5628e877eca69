#!/usr/bin/env python3
"""Turn series/ into the messages a poster sends: one mbox, threaded the
way git send-email threads a series (every patch a reply to the cover
letter), and the same messages one file each for git send-email.

  mbox.py OUT_MBOX OUT_DIR SERIES_DIR ADDR_DIR "NAME <EMAIL>" [BASE_LINES]

The series' own identity (the author of its commits, From: and
Signed-off-by:) is replaced by the poster's.  ADDR_DIR holds, for each
patch file NAME, NAME.to and NAME.cc: one address a line (from
scripts/get_maintainer.pl); the Cc: trailers of a patch and the "Cc"
block of the cover letter's text are added to its Cc.  Message-IDs are
derived from the contents, so the same series gives the same messages.
BASE_LINES, a file of base-commit and prerequisite-patch-id lines (the
tree the series is proved on; a prerequisite-message-id line names a
posting it needs), replaces the cover letter's own.  Prints the first
message's Message-ID, for a later posting to name.
"""
import glob
import hashlib
import os
import email.utils
import re
import sys

from cover import read_base, set_base


def unfold(head):
    """The header block as (name, value) pairs, continuation lines joined."""
    fields = []
    for line in head.split("\n"):
        if line.startswith("From ") and not fields:
            fields.append([line, None])     # the mbox separator line
        elif line[:1] in (" ", "\t") and fields:
            fields[-1][1] += " " + line.strip()
        elif ":" in line:
            name, _, value = line.partition(":")
            fields.append([name, value.strip()])
        else:
            fields.append([line, None])
    return fields


def fold(name, addrs):
    """A To:/Cc: header, one address a line."""
    return "%s: %s" % (name, ",\n\t".join(addrs))


def read_addrs(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip()]


def cover_cc(body):
    """The indented addresses of the cover text's Cc block: a paragraph
    that starts with "Cc" and whose heading (one or more lines) ends with
    a colon."""
    out, state = [], 0
    for line in body.split("\n"):
        if state == 0 and re.match(r"^Cc\b", line):
            state = 1
        if state == 1:
            if not line.strip():
                state = 0
            elif line.rstrip().endswith(":"):
                state = 2
        elif state == 2:
            if line.startswith("  ") and line.strip():
                out.append(line.strip())
            else:
                break
    return out


def uniq(addrs, drop=()):
    seen, out = set(drop), []
    for a in addrs:
        key = a.lower()
        m = re.search(r"<([^>]+)>", a)
        if m:
            key = m.group(1).lower()
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def main():
    out_mbox, out_dir, series, addr_dir, poster = sys.argv[1:6]
    files = sorted(glob.glob(os.path.join(series, "[0-9][0-9][0-9][0-9]-*.patch")))
    if not files:
        sys.exit("mbox.py: no patches in %s" % series)
    texts = [open(f, encoding="utf-8").read() for f in files]
    has_cover = os.path.basename(files[0]).startswith("0000-")
    if len(sys.argv) > 6 and has_cover:
        texts[0] = set_base(texts[0], read_base(sys.argv[6]))
    tag = hashlib.sha256("".join(texts).encode()).hexdigest()[:12]
    ids = ["<swapq-%s-%d@localhost>" % (tag, n) for n in range(len(files))]
    identity = None
    os.makedirs(out_dir, exist_ok=True)
    parts = []
    for n, text in enumerate(texts):
        name = os.path.basename(files[n])
        head, sep, body = text.partition("\n\n")
        if not sep or not head.startswith("From "):
            sys.exit("mbox.py: %s is not a format-patch file" % files[n])
        fields = unfold(head)
        frm = [f[1] for f in fields if f[0] == "From"]
        if not frm:
            sys.exit("mbox.py: %s has no From: header" % name)
        if identity is None:
            identity = frm[0]
        if frm[0] != identity:
            sys.exit("mbox.py: %s is from %s, the series from %s: "
                     "post each author's patches as they need" %
                     (name, frm[0], identity))
        body = body.replace("Signed-off-by: %s\n" % identity,
                            "Signed-off-by: %s\n" % poster)
        # The cover letter's shortlog names the author too.
        old_name = email.utils.parseaddr(identity)[0]
        new_name = email.utils.parseaddr(poster)[0]
        body = re.sub(r"^%s (\(\d+\):)$" % re.escape(old_name),
                      lambda m: "%s %s" % (new_name, m.group(1)), body,
                      flags=re.M)
        if identity in body or re.search(
                r"^%s \(\d+\):$" % re.escape(old_name), body, re.M):
            sys.exit("mbox.py: %s still names %s after the rewrite" %
                     (name, identity))
        to = read_addrs(os.path.join(addr_dir, name + ".to"))
        cc = read_addrs(os.path.join(addr_dir, name + ".cc"))
        cc += re.findall(r"^Cc: (.+)$", body, re.M)
        if n == 0 and has_cover:
            cc += cover_cc(body)
        to = uniq(to)
        cc = uniq(cc, drop=[re.sub(r".*<([^>]+)>.*", r"\1", a).lower()
                            for a in to])
        if not to:
            sys.exit("mbox.py: no To: address for %s" % name)
        out = []
        for fname, value in fields:
            if value is None:
                out.append(fname)
            elif fname == "From":
                out.append("From: " + email.utils.formataddr(
                    email.utils.parseaddr(poster)))
            else:
                out.append("%s: %s" % (fname, value))
        out.append(fold("To", to))
        if cc:
            out.append(fold("Cc", cc))
        out.append("Message-ID: %s" % ids[n])
        if n and has_cover:
            out.append("In-Reply-To: %s\nReferences: %s" % (ids[0], ids[0]))
        msg = "\n".join(out) + "\n\n" + body
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(msg)
        # mboxrd: quote body lines that would read as a message separator.
        body = "".join(">" + l if l.lstrip(">").startswith("From ") else l
                       for l in body.splitlines(True))
        parts.append("\n".join(out) + "\n\n" + body +
                     ("" if body.endswith("\n") else "\n"))
    with open(out_mbox, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    print(ids[0])


if __name__ == "__main__":
    main()
