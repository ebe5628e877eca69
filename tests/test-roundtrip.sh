#!/bin/sh
# The work tree round trip on a synthetic base (no download): apply the
# prerequisite in tests/fixture/synthetic/prereqs and the series in
# tests/fixture/synthetic/series, export it again, and compare byte for
# byte, first on a freshly committed base whose objects are all loose,
# then after the base has been packed together with enough other objects
# that git's own choice of abbreviation length grows.  Nothing the export
# writes may depend on such repository state.  Then a base that already
# holds the prerequisite, committed under its subject by someone else:
# the prerequisite is skipped and the result is the same tree.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
fix=$TOP/tests/fixture/synthetic
base=$T/base

synthetic_base "$base" >/dev/null || notok synthetic-base "cannot commit the synthetic base"

roundtrip() {	# roundtrip NAME: apply and export into a new work tree
	rm -rf "$T/series" "$T/work"
	cp -r "$fix/series" "$T/series"
	if KERNEL_SRC=$base SERIES=$T/series WORK=$T/work PREREQS=$fix/prereqs \
		"$TOP/scripts/kernel/tree.sh" work >"$T/log" 2>&1 &&
		KERNEL_SRC=$base SERIES=$T/series WORK=$T/work PREREQS=$fix/prereqs \
		"$TOP/scripts/kernel/tree.sh" export >>"$T/log" 2>&1 &&
		diff -r "$fix/series" "$T/series" >"$T/diff" 2>&1; then
		ok "$1"
	else
		notok "$1" "$(cat "$T/diff" "$T/log" 2>/dev/null | head -c 400 | tr '\n' ' ')"
	fi
}

[ -z "$(find "$base/.git/objects/pack" -name '*.pack')" ] &&
	roundtrip roundtrip-loose-base

# 40000 more objects, reachable from a branch of their own, and git gc:
# git's default abbreviation is now longer than the 7 characters it used
# while every object was loose.
{
	printf 'commit refs/heads/bulk\ncommitter T <t@t> 1767225600 +0000\ndata 5\nbulk\n'
	i=0
	while [ $i -lt 40000 ]; do
		printf 'M 100644 inline %d\ndata %d\n%d\n' "$i" $((${#i} + 1)) "$i"
		i=$((i + 1))
	done
} | pgit -C "$base" fast-import --quiet || notok roundtrip-packed-base "fast-import failed"
pgit -C "$base" gc -q
short=$(GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -C "$base" rev-parse --short HEAD)
if [ "${#short}" -le 7 ]; then
	notok roundtrip-packed-base "git still abbreviates to ${#short} characters: the check would not see a change"
else
	roundtrip roundtrip-packed-base
fi

# The prerequisite as upstream would have it: same change and subject,
# another author and date.
want=$(git -C "$T/work" rev-parse 'HEAD^{tree}')
pre=$(ls "$fix"/prereqs/0001-*.patch)
subj=$(pgit mailinfo /dev/null /dev/null <"$pre" | sed -n 's/^Subject: //p')
pgit clone -q "$base" "$T/base2"
pgit -C "$T/base2" apply "$pre" &&
	GIT_AUTHOR_NAME=Upstream GIT_AUTHOR_EMAIL=up@example.org \
	pgit -C "$T/base2" commit -q -a --no-gpg-sign --no-verify -m "$subj" -m "Queued upstream."
rm -rf "$T/series" "$T/work2"
cp -r "$fix/series" "$T/series"
if KERNEL_SRC=$T/base2 SERIES=$T/series WORK=$T/work2 PREREQS=$fix/prereqs \
	"$TOP/scripts/kernel/tree.sh" work >"$T/log" 2>&1 &&
	grep -q "prerequisite already in the base, skipped: $subj" "$T/log" &&
	[ "$(git -C "$T/work2" rev-parse 'HEAD^{tree}')" = "$want" ] &&
	[ "$(git -C "$T/work2" rev-list --count "$(git -C "$T/base2" rev-parse HEAD)..HEAD")" -eq 2 ]; then
	ok prereq-in-base-skipped
else
	notok prereq-in-base-skipped "$(head -c 300 "$T/log" | tr '\n' ' ')"
fi
