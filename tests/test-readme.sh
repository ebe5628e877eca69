#!/bin/sh
# README.md lists the series as it is: one line "N subject" per patch of
# series/ (its postings in order), and the same number of patches as the
# cover letter; it is at most 170 lines, and links to each docs/*.md and
# no missing one.
. "$(dirname "$0")/lib.sh"
python3 - "$TOP" >"$T/out" 2>&1 <<'EOP'
import email, glob, os, re, sys
top = sys.argv[1]
want = []
flat = sorted(glob.glob(os.path.join(top, "series", "[0-9][0-9][0-9][0-9]-*.patch")))
for p in flat or sorted(glob.glob(os.path.join(top, "series", "*", "[0-9][0-9][0-9][0-9]-*.patch"))):
    if os.path.basename(p).startswith("0000-"):
        continue
    with open(p, encoding="utf-8") as f:
        subj = email.message_from_file(f)["Subject"]
    want.append(re.sub(r"^\[[^]]*\]\s*", "", re.sub(r"\s*\n\s*", " ", subj)))
text = open(os.path.join(top, "README.md"), encoding="utf-8").read()
block = re.search(r"^    series/.*?\n\n", text, re.M | re.S)
got = [m.group(2) for m in re.finditer(r"^ +(\d+) (\S.*)$", block.group(0) if block else "", re.M)]
if got != want:
    for i, (g, w) in enumerate(zip(got + [""] * len(want), want + [""] * len(got))):
        if g != w:
            print("patch %d: README has %r, series/ has %r" % (i + 1, g, w))
            break
    sys.exit(1)
print("%d patches" % len(want))
EOP
if [ $? -eq 0 ]; then
	ok readme-lists-the-series
else
	notok readme-lists-the-series "$(head -n1 "$T/out")"
fi
# make help names every target the Makefile declares.
targets=$(sed -n '/^\.PHONY:/,/[^\\]$/p' "$TOP/Makefile" | sed 's/^\.PHONY://; s/\\$//')
help=$(make -s -C "$TOP" help 2>&1)
missing=
for t in $targets; do
	printf '%s\n' "$help" | grep -Eq "(^|[ ,(])$t([ ,):;]|$)" || missing="$missing $t"
done
if [ -n "$targets" ] && [ -z "$missing" ]; then
	ok help-lists-every-target
else
	notok help-lists-every-target "make help does not name:${missing:- (no .PHONY targets found)}"
fi
# README.md stays a front page: at most 170 lines, the detail in docs/.
n=$(wc -l <"$TOP/README.md")
if [ "$n" -le 170 ]; then
	ok readme-is-short
else
	notok readme-is-short "README.md has $n lines, more than 170: move detail to docs/"
fi
# Every docs/*.md the README links to exists, and the README links to
# every docs/*.md there is.
linked=$(grep -o '](docs/[^)#]*\.md' "$TOP/README.md" | sed 's/^](//' | sort -u)
have=$(cd "$TOP" && ls docs/*.md 2>/dev/null | sort -u)
dangling= unlinked=
for f in $linked; do
	[ -f "$TOP/$f" ] || dangling="$dangling $f"
done
for f in $have; do
	printf '%s\n' "$linked" | grep -qxF "$f" || unlinked="$unlinked $f"
done
if [ -n "$linked" ] && [ -z "$dangling$unlinked" ]; then
	ok readme-links-docs
else
	why="${dangling:+README links to missing:$dangling; }${unlinked:+README does not link:$unlinked}"
	notok readme-links-docs "${why:-README links to no docs/*.md}"
fi
