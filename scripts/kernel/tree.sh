#!/bin/sh
# Prepare kernel source trees (clones that share the base repository's
# objects; the base repository itself is never modified).
#
#   tree.sh base     $BASE_SRC = the base commit, for the base kernel
#   tree.sh work     $WORK = base commit + prereqs/ + series/ (git am)
#   tree.sh export   write $WORK's commits after the prerequisites back
#                    into series/
#   tree.sh patches [DIR]  print the patch files of series/ (of the
#                    posting in DIR), in git am order
#   tree.sh postings print series/'s postings: a line each, "DIR N", its
#                    directory and how many patches it has
#   tree.sh bounds   print the work tree's postings: a line each, "DIR
#                    FROM TO", the commits FROM..TO it holds
#   tree.sh prereqs  print the patch files of prereqs/, in git am order
#   tree.sh prereq-tip  the work tree's last prerequisite (or the base)
#   tree.sh base-lines [K]  the work tree's base-commit and
#                    prerequisite-patch-id lines of posting K (1), as the
#                    export writes them
#
# series/ is one posting (its patches at its top) or several, one a
# subdirectory each (series/1-NAME/, series/2-NAME/, ...), applied in the
# order of their names, each posted with its own cover letter; a later
# one names the patches before it as prerequisite-patch-id lines.  In the
# work tree a posting ends at the commit with the subject its last patch
# had when the tree was applied or last exported.
#
# prereqs/ holds our stand-ins for commits the series needs that are
# queued upstream but not in the base.  Each one the base already has (by
# subject, or by its change: see prereq_in_base) is skipped; the rest are
# applied before the series, and the cover letter lists them as
# prerequisite-patch-id lines.
set -eu
. "$(dirname "$0")/../lib.sh"

: "${SERIES:=$TOP/series}"
: "${PREREQS:=$TOP/prereqs}"
: "${WORK:=$BUILD/work}"
: "${BASE_SRC:=$BUILD/src-base}"

# patches_in DIR: its format-patch files in git am order, no cover letter
patches_in() {
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$p" ] || continue
		case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
		echo "$p"
	done
}
prereq_patches() { patches_in "$PREREQS"; }

# postings: series/'s postings, a directory a line, in the order they
# apply: series/ itself when its patches are at its top, else each of its
# subdirectories that holds patches, by name.
postings() {
	if [ -n "$(patches_in "$SERIES")" ] || [ -f "$SERIES/0000-cover-letter.patch" ]; then
		echo "$SERIES"
		return 0
	fi
	p_any=
	for d in "$SERIES"/*/; do
		[ -n "$(patches_in "${d%/}")" ] || continue
		echo "${d%/}"
		p_any=1
	done
	[ -n "$p_any" ] || echo "$SERIES"
}
series_patches() {
	for d in $(postings); do
		patches_in "$d"
	done
}

# The hash of the patches (not the cover letter: editing its text needs
# no new application) and of how they are cut into postings.
series_hash() {
	for p in $(prereq_patches) $(series_patches); do
		# Paths from where they are kept: a clone elsewhere that shares
		# BUILD has the same series.
		p_rel=${p#"$PREREQS"/}
		echo "${p_rel#"$SERIES"}"
		cat "$p"
	done 2>/dev/null | sha256sum | cut -d' ' -f1
}

# The work tree's last prerequisite (the base commit if none was applied).
prereq_tip() {
	pgit -C "$WORK" rev-parse -q --verify refs/swapq/prereqs 2>/dev/null ||
		echo "$COMMIT"
}

# subject_prefix DIR: the subject prefix of the posting in DIR ("RFC
# PATCH"), kept from its cover letter; PATCH for one that has none yet.
subject_prefix() {
	sp=$(sed -n 's/^Subject: \[\(.*\) 0*0\/[0-9]*\].*/\1/p' \
		"$1/0000-cover-letter.patch" 2>/dev/null | head -n1)
	echo "${sp:-PATCH}"
}

# cover_hash DIR: the hash of the cover letter of the posting in DIR, to
# compare with the one keep_cover last read or the export last wrote.
cover_hash() {
	cat "$1/0000-cover-letter.patch" 2>/dev/null | sha256sum
}

# The postings as the work tree was last applied or exported: "DIR
# SUBJECT" a line, SUBJECT that of the posting's last commit.
POSTINGS_FILE=swapq-postings

# record_postings: write POSTINGS_FILE from "DIR END" lines on stdin, a
# posting's directory and its last commit in the work tree.
record_postings() {
	: >"$WORK/.git/$POSTINGS_FILE.new"
	while read -r rp_dir rp_end; do
		rp_name=.
		[ "$rp_dir" = "$SERIES" ] || rp_name=${rp_dir##*/}
		printf '%s %s\n' "$rp_name" "$(git -C "$WORK" log -1 --format=%s "$rp_end")" \
			>>"$WORK/.git/$POSTINGS_FILE.new"
	done
	mv "$WORK/.git/$POSTINGS_FILE.new" "$WORK/.git/$POSTINGS_FILE"
}

# bounds [TIP]: each posting of the work tree up to TIP (HEAD) as "DIR
# FROM TO": its directory and the commits FROM..TO it holds.  The last
# posting ends at TIP; each other one at the first commit after the one
# before it that has its recorded subject.
bounds() {
	[ -f "$WORK/.git/$POSTINGS_FILE" ] ||
		die "$WORK has no record of series/'s postings: run 'make worktree' (FORCE=1 drops its commits)"
	b_tip=$(git -C "$WORK" rev-parse "${1:-HEAD}")
	b_from=$(prereq_tip)
	b_n=$(wc -l <"$WORK/.git/$POSTINGS_FILE")
	b_k=0
	while read -r b_name b_subj; do
		b_k=$((b_k + 1))
		b_dir=$SERIES
		[ "$b_name" = . ] || b_dir=$SERIES/$b_name
		if [ "$b_k" -eq "$b_n" ]; then
			b_to=$b_tip
		else
			b_to=$(git -C "$WORK" log --reverse --format='%H %s' "$b_from..$b_tip" |
				awk -v s="$b_subj" 'substr($0, index($0, " ") + 1) == s { print $1; exit }')
			[ -n "$b_to" ] ||
				die "posting $b_name ended at the commit '$b_subj', which $WORK no longer has after $(git -C "$WORK" rev-parse --short "$b_from"): give a commit that subject again, or say in $WORK/.git/$POSTINGS_FILE which commit ends it"
		fi
		echo "$b_dir $b_from $b_to"
		b_from=$b_to
	done <"$WORK/.git/$POSTINGS_FILE"
}

# prereq_in_base PATCH SUBJECT: the base already has this prerequisite;
# prints the rule that shows it.  Upstream may reword a commit as it
# queues it, so besides the subject: its change is in the base's tree (it
# applies there in reverse and not forward), or a commit of the base that
# touches its files has its patch-id (a change made again since).
prereq_in_base() {
	if pgit -C "$WORK" log --format=%s -F --grep="$2" "$COMMIT" | grep -Fxq -- "$2"; then
		echo "its subject is in the base's history"
		return 0
	fi
	# A scratch index of the base's tree: no checkout, no repository touched.
	idx=$WORK/.git/swapq-apply-index
	GIT_INDEX_FILE=$idx pgit -C "$WORK" read-tree "$COMMIT"
	if GIT_INDEX_FILE=$idx pgit -C "$WORK" apply --cached --check -R "$1" 2>/dev/null &&
		! GIT_INDEX_FILE=$idx pgit -C "$WORK" apply --cached --check "$1" 2>/dev/null; then
		rm -f "$idx"
		echo "its change is in the base's tree"
		return 0
	fi
	rm -f "$idx"
	id=$(pgit patch-id --stable <"$1" | cut -d' ' -f1)
	files=$(sed -n 's|^--- a/||p; s|^+++ b/||p' "$1" | sort -u)
	[ -n "$id" ] && [ -n "$files" ] || return 1
	# shellcheck disable=SC2086
	c=$(pgit -C "$WORK" log --no-merges -p --format='commit %H' "$COMMIT" -- $files |
		pgit patch-id --stable | awk -v id="$id" '$1 == id { print $2; exit }')
	[ -n "$c" ] || return 1
	echo "the base's commit $(pgit -C "$WORK" rev-parse --short "$c") has its patch-id"
}

# am_one PATCH: apply it to $WORK, or leave the work tree at the bare base
# and fail naming the patch.
am_one() {
	if ! pgit -C "$WORK" am -q --committer-date-is-author-date "$1" \
		>"$WORK/.git/swapq-am.log" 2>&1; then
		why=$(grep -m1 -E '^(error|fatal):' "$WORK/.git/swapq-am.log" ||
			head -n1 "$WORK/.git/swapq-am.log")
		pgit -C "$WORK" am --abort >/dev/null 2>&1 || true
		pgit -C "$WORK" checkout -q -f --detach "$COMMIT"
		pgit -C "$WORK" update-ref -d refs/swapq/prereqs 2>/dev/null || true
		die "${1##*/} does not apply to $COMMIT: ${why:-see $WORK/.git/swapq-am.log}"
	fi
}

# keep_cover [TIP]: remember each posting's cover letter text for the
# next export, matched against the commits up to TIP (HEAD) that series/
# holds; nothing to do for a cover letter that is the one last read.
keep_cover() {
	kc_k=0
	bounds "${1:-HEAD}" >"$WORK/.git/swapq-bounds"
	while read -r kc_dir kc_from kc_to; do
		kc_k=$((kc_k + 1))
		kc_c=$WORK/.git/swapq-cover.$kc_k
		src_hash=$(cover_hash "$kc_dir")
		[ -f "$kc_c" ] && [ "$src_hash" = "$(cat "$kc_c.src" 2>/dev/null)" ] && continue
		rm -f "$kc_c" "$kc_c.src"
		[ -f "$kc_dir/0000-cover-letter.patch" ] && [ -n "$(patches_in "$kc_dir")" ] || continue
		tmp=$(mktemp -d)
		fmt_patch "$WORK" "$COMMIT" "$kc_from" "$tmp" "$kc_to" "$kc_dir"
		"$TOP/scripts/post/cover.py" extract "$kc_dir/0000-cover-letter.patch" \
			"$tmp/0000-cover-letter.patch" >"$kc_c" ||
			{ rm -rf "$tmp"; die "cannot keep the cover letter's text of $kc_dir"; }
		rm -rf "$tmp"
		echo "$src_hash" >"$kc_c.src"
	done <"$WORK/.git/swapq-bounds"
}

# clone_at DIR REPO COMMIT: a shared clone of REPO checked out at COMMIT.
clone_at() {
	if [ -d "$1/.git" ] && [ "$(cat "$1/.git/swapq-origin" 2>/dev/null)" != "$2" ]; then
		say "$1 was cloned from another tree; recloning"
		rm -rf "$1"
	fi
	if [ ! -d "$1/.git" ]; then
		say "cloning $2 into $1 (shared objects)"
		rm -rf "$1"
		mkdir -p "$(dirname "$1")"
		pgit clone -q --shared --no-checkout "$2" "$1" ||
			die "cannot clone $2"
		echo "$2" >"$1/.git/swapq-origin"
	fi
	# A shallow REPO (git fetch --depth): the clone must know where its
	# history ends, or git looks there for parents it does not have.
	if [ "$(git -C "$2" rev-parse --is-shallow-repository)" = true ]; then
		cp "$(git -C "$2" rev-parse --path-format=absolute --git-path shallow)" "$1/.git/shallow"
	else
		rm -f "$1/.git/shallow"
	fi
	git -C "$1" cat-file -e "$3^{commit}" 2>/dev/null ||
		git -C "$1" fetch -q "$2" "$3" ||
		die "cannot fetch $3 from $2"
	git -C "$1" checkout -q -f --detach "$3" || die "cannot check out $3 in $1"
}

# fmt_patch DIR BASE FROM OUT TIP POSTING: format-patch FROM..TIP of DIR
# into OUT, with base-commit BASE (and a prerequisite-patch-id line for
# each commit between BASE and FROM) and the subject prefix of the posting
# in the directory POSTING, everything that could vary from run
# to run pinned (commit hashes, signature, dates and identity of the cover
# letter, user configuration, the length of abbreviated object names).
fmt_patch() {
	tip=$5
	an=$(git -C "$1" log -1 --format=%an "$tip")
	ae=$(git -C "$1" log -1 --format=%ae "$tip")
	ad=$(git -C "$1" log -1 --format=%ad --date=raw "$tip")
	GIT_COMMITTER_NAME=$an GIT_COMMITTER_EMAIL=$ae GIT_COMMITTER_DATE=$ad \
		pgit -C "$1" format-patch -q --cover-letter --zero-commit \
		--no-signature --subject-prefix="$(subject_prefix "$6")" \
		--base="$2" -o "$4" "$3..$tip" || return 1
	stable_prereq_ids "$1" "$2" "$3" "$4/0000-cover-letter.patch"
}

# stable_prereq_ids DIR BASE FROM COVER: COVER's prerequisite-patch-id
# lines, one per commit BASE..FROM in order, as `git patch-id --stable`
# reads each commit's format-patch text, which is what b4 and the list's
# bots compute from the posted patches.  git 2.39's format-patch --base
# hashes its own diff and can disagree with that (it did for a patch of
# this series whose text gives another id).
stable_prereq_ids() {
	_ids=$(mktemp)
	for _c in $(pgit -C "$1" rev-list --reverse "$2..$3"); do
		pgit -C "$1" format-patch -1 --stdout --zero-commit --no-signature "$_c" |
			pgit patch-id --stable | cut -d' ' -f1
	done >"$_ids"
	awk -v ids="$_ids" '
	/^prerequisite-patch-id: / { if ((getline id <ids) <= 0) exit 3; print "prerequisite-patch-id: " id; next }
	{ print }
	END { if ((getline id <ids) > 0) exit 3 }' "$4" >"$4.ids" || {
		rm -f "$_ids" "$4.ids"
		die "format-patch's prerequisite-patch-id lines are not one per commit $2..$3"
	}
	mv "$4.ids" "$4"
	rm -f "$_ids"
}

base_info() {
	base_tree
	REPO=$base_repo
	COMMIT=$base_commit
}

check_base_commit() {
	want=$(sed -n 's/^base-commit: //p' "$(postings | head -n1)/0000-cover-letter.patch" 2>/dev/null || true)
	[ -n "$want" ] && [ "$want" != "$COMMIT" ] || return 0
	if [ -n "${KERNEL_SRC:-}" ]; then
		say "note: series/ is based on $want, applying to $COMMIT from KERNEL_SRC"
	else
		die "series/ says base-commit: $want but the base tree is $COMMIT"
	fi
}

do_work() {
	base_info
	check_base_commit
	# The base is a commit: what the user's tree has uncommitted (they may
	# be mid-edit) is not in it.
	if [ -n "${KERNEL_SRC:-}" ] &&
		[ "$(git -C "$REPO" rev-parse -q --verify HEAD 2>/dev/null)" = "$COMMIT" ] &&
		[ "$(git -C "$REPO" rev-parse --is-inside-work-tree 2>/dev/null)" = true ] &&
		[ -n "$(git -C "$REPO" --no-optional-locks status --porcelain --untracked-files=no)" ]; then
		say "note: $REPO has uncommitted changes; they are not part of the base $COMMIT the series is applied to"
	fi
	stamp=$WORK/.git/swapq-stamp
	if [ -d "$WORK/.git/rebase-apply" ]; then
		# Our own git am, cut short (^C): no stamp while it applies.
		[ ! -f "$stamp" ] ||
			die "$WORK has a git am in progress: finish it (git -C $WORK am --continue) or drop it (git -C $WORK am --abort)"
		pgit -C "$WORK" am --abort >/dev/null 2>&1 || rm -rf "$WORK/.git/rebase-apply"
		say "$WORK: aborted the git am an earlier run left unfinished"
	fi
	if [ -d "$WORK/.git" ]; then
		[ -z "$(git -C "$WORK" status --porcelain --untracked-files=no)" ] ||
			die "$WORK has uncommitted changes: commit them (and 'make export') first"
		head=$(git -C "$WORK" rev-parse HEAD)
		if [ -f "$stamp" ]; then
			read -r s_commit s_head s_hash <"$stamp" || true
			[ "$s_head" = "$head" ] || [ "${FORCE:-}" = 1 ] ||
				die "$WORK has commits that are not in series/: 'make export' them, or FORCE=1 to drop them"
			if [ "$s_commit $s_head $s_hash" = "$COMMIT $head $(series_hash)" ] &&
				[ -f "$WORK/.git/$POSTINGS_FILE" ]; then
				keep_cover
				say "work tree is up to date with series/"
				return 0
			fi
		fi
	fi
	rm -f "$stamp"
	clone_at "$WORK" "$REPO" "$COMMIT"
	pgit -C "$WORK" update-ref -d refs/swapq/prereqs 2>/dev/null || true
	np=0
	for p in $(prereq_patches); do
		subj=$(pgit mailinfo /dev/null /dev/null <"$p" | sed -n 's/^Subject: //p')
		[ -n "$subj" ] || die "${p##*/} has no subject"
		if rule=$(prereq_in_base "$p" "$subj"); then
			say "prerequisite already in the base, skipped: $subj ($rule)"
			continue
		fi
		am_one "$p"
		np=$((np + 1))
	done
	pgit -C "$WORK" update-ref refs/swapq/prereqs HEAD
	n=0
	for d in $(postings); do
		for p in $(patches_in "$d"); do
			n=$((n + 1))
			am_one "$p"
		done
		echo "$d $(git -C "$WORK" rev-parse HEAD)"
	done >"$WORK/.git/swapq-ends"
	record_postings <"$WORK/.git/swapq-ends"
	rm -f "$WORK/.git/swapq-cover"*
	git -C "$WORK" checkout -q -B series
	keep_cover
	echo "$COMMIT $(git -C "$WORK" rev-parse HEAD) $(series_hash)" >"$stamp"
	say "work tree: $WORK = $COMMIT + $np prerequisites + $n patches in $(postings | wc -l) posting(s)"
}

do_export() {
	base_info
	[ -d "$WORK/.git" ] || die "no work tree at $WORK: run 'make worktree' first"
	[ -z "$(git -C "$WORK" status --porcelain --untracked-files=no)" ] ||
		die "$WORK has uncommitted changes: commit them first"
	from=$(prereq_tip)
	git -C "$WORK" merge-base --is-ancestor "$from" HEAD ||
		die "$WORK's HEAD does not descend from the base commit and prerequisites ($from)"
	# An edit of a cover letter that the work tree has not read yet: take
	# its text, against the commits series/ holds (the last export or
	# application), which may be older than the work tree's.
	edited= k=0
	for d in $(postings); do
		k=$((k + 1))
		[ -f "$d/0000-cover-letter.patch" ] &&
			[ "$(cover_hash "$d")" != "$(cat "$WORK/.git/swapq-cover.$k.src" 2>/dev/null)" ] &&
			edited=$d
	done
	if [ -n "$edited" ] && [ "${FORCE:-}" != 1 ]; then
		s_head=
		[ -f "$WORK/.git/swapq-stamp" ] && read -r _ s_head _ <"$WORK/.git/swapq-stamp"
		[ -n "$s_head" ] && git -C "$WORK" cat-file -e "$s_head^{commit}" 2>/dev/null ||
			die "${edited#"$TOP"/}/0000-cover-letter.patch was edited, but the commits it belongs to are not in $WORK: run 'make worktree' first (FORCE=1 drops the edit)"
		keep_cover "$s_head"
		say "read the edited cover letter"
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	bounds >"$tmp/bounds"
	k=0
	while read -r d from to; do
		k=$((k + 1))
		mkdir -p "$tmp/$k"
		[ "$(git -C "$WORK" rev-list --count "$from..$to")" -gt 0 ] || continue
		fmt_patch "$WORK" "$COMMIT" "$from" "$tmp/$k" "$to" "$d"
		if [ -f "$WORK/.git/swapq-cover.$k" ]; then
			"$TOP/scripts/post/cover.py" fill "$tmp/$k/0000-cover-letter.patch" \
				"$WORK/.git/swapq-cover.$k" >"$tmp/cover" ||
				die "cannot fill in the cover letter of $d"
			mv "$tmp/cover" "$tmp/$k/0000-cover-letter.patch"
		else
			say "note: no cover letter text yet; edit ${d#"$TOP"/}/0000-cover-letter.patch, then 'make worktree'"
		fi
	done <"$tmp/bounds"
	k=0 nf=0
	while read -r d from to; do
		k=$((k + 1))
		mkdir -p "$d"
		rm -f "$d"/*.patch
		for f in "$tmp/$k"/*.patch; do
			[ -e "$f" ] || continue
			mv "$f" "$d/"
			nf=$((nf + 1))
		done
		if [ -f "$d/0000-cover-letter.patch" ] && [ -f "$WORK/.git/swapq-cover.$k" ]; then
			cover_hash "$d" >"$WORK/.git/swapq-cover.$k.src"
		fi
		echo "$d $to"
	done <"$tmp/bounds" >"$tmp/ends"
	record_postings <"$tmp/ends"
	echo "$COMMIT $(git -C "$WORK" rev-parse HEAD) $(series_hash)" >"$WORK/.git/swapq-stamp"
	say "exported $nf files to $SERIES"
}

# base_lines [K]: the work tree's base-commit and prerequisite-patch-id
# lines of posting K (1; a later posting has the earlier ones' patches
# among its prerequisites), by the export's own format-patch.
base_lines() {
	[ -d "$WORK/.git" ] || die "no work tree at $WORK: run 'make worktree' first"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	bounds >"$tmp/bounds"
	line=$(sed -n "${1:-1}p" "$tmp/bounds")
	[ -n "$line" ] || die "the work tree has no posting ${1:-1}"
	# shellcheck disable=SC2086 # DIR FROM TO, none with a space
	set -- $line
	fmt_patch "$WORK" "$COMMIT" "$2" "$tmp" "$3" "$1"
	grep -E '^(base-commit|prerequisite-patch-id): ' "$tmp/0000-cover-letter.patch" ||
		die "format-patch wrote no base-commit line for $WORK"
}

case ${1:-} in
base)
	base_info
	clone_at "$BASE_SRC" "$REPO" "$COMMIT"
	;;
work) do_work ;;
export) do_export ;;
patches)
	if [ -n "${2:-}" ]; then patches_in "$2"; else series_patches; fi ;;
prereqs) prereq_patches ;;
prereq-tip)
	base_info
	prereq_tip ;;
bounds)
	base_info
	bounds ;;
postings)
	for d in $(postings); do
		echo "$d $(patches_in "$d" | wc -l)"
	done ;;
base-lines)
	base_info
	base_lines "${2:-1}" ;;
*) die "usage: tree.sh base|work|export|patches|postings|bounds|prereqs|prereq-tip|base-lines [K]" ;;
esac
