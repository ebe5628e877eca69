#!/bin/sh
# Prepare kernel source trees (clones that share the base repository's
# objects; the base repository itself is never modified).
#
#   tree.sh base     $BASE_SRC = the base commit, for the base kernel
#   tree.sh work     $WORK = base commit + prereqs/ + series/ (git am)
#   tree.sh export   write $WORK's commits after the prerequisites back
#                    into series/
#   tree.sh patches  print the patch files of series/, in git am order
#   tree.sh prereqs  print the patch files of prereqs/, in git am order
#   tree.sh prereq-tip  the work tree's last prerequisite (or the base)
#   tree.sh base-lines  the work tree's base-commit and
#                    prerequisite-patch-id lines, as the export writes them
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
series_patches() { patches_in "$SERIES"; }
prereq_patches() { patches_in "$PREREQS"; }

# The hash of the patches (not the cover letter: editing its text needs
# no new application).
series_hash() {
	cat $(prereq_patches) $(series_patches) </dev/null 2>/dev/null |
		sha256sum | cut -d' ' -f1
}

# The work tree's last prerequisite (the base commit if none was applied).
prereq_tip() {
	pgit -C "$WORK" rev-parse -q --verify refs/swapq/prereqs 2>/dev/null ||
		echo "$COMMIT"
}

# The subject prefix of the series ("RFC PATCH"), kept from its cover
# letter; PATCH for a series that has none yet.
subject_prefix() {
	sp=$(sed -n 's/^Subject: \[\(.*\) 0*0\/[0-9]*\].*/\1/p' \
		"$SERIES/0000-cover-letter.patch" 2>/dev/null | head -n1)
	echo "${sp:-PATCH}"
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

# keep_cover [TIP]: remember the cover letter's own text for the next
# export, matched against the commits up to TIP (HEAD) that series/ holds;
# nothing to do while the cover letter is the one last read.
keep_cover() {
	src_hash=$(cat "$SERIES/0000-cover-letter.patch" 2>/dev/null | sha256sum)
	[ -f "$WORK/.git/swapq-cover" ] &&
		[ "$src_hash" = "$(cat "$WORK/.git/swapq-cover.src" 2>/dev/null)" ] && return 0
	rm -f "$WORK/.git/swapq-cover" "$WORK/.git/swapq-cover.src"
	[ -f "$SERIES/0000-cover-letter.patch" ] && [ -n "$(series_patches)" ] || return 0
	tmp=$(mktemp -d)
	fmt_patch "$WORK" "$COMMIT" "$(prereq_tip)" "$tmp" "${1:-HEAD}"
	"$TOP/scripts/post/cover.py" extract "$SERIES/0000-cover-letter.patch" \
		"$tmp/0000-cover-letter.patch" >"$WORK/.git/swapq-cover" ||
		{ rm -rf "$tmp"; die "cannot keep the cover letter's text"; }
	rm -rf "$tmp"
	echo "$src_hash" >"$WORK/.git/swapq-cover.src"
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

# fmt_patch DIR BASE FROM OUT [TIP]: format-patch FROM..TIP (HEAD) of DIR
# into OUT, with base-commit BASE (and a prerequisite-patch-id line for
# each commit between BASE and FROM), everything that could vary from run
# to run pinned (commit hashes, signature, dates and identity of the cover
# letter, user configuration, the length of abbreviated object names).
fmt_patch() {
	tip=${5:-HEAD}
	an=$(git -C "$1" log -1 --format=%an "$tip")
	ae=$(git -C "$1" log -1 --format=%ae "$tip")
	ad=$(git -C "$1" log -1 --format=%ad --date=raw "$tip")
	GIT_COMMITTER_NAME=$an GIT_COMMITTER_EMAIL=$ae GIT_COMMITTER_DATE=$ad \
		pgit -C "$1" format-patch -q --cover-letter --zero-commit \
		--no-signature --subject-prefix="$(subject_prefix)" \
		--base="$2" -o "$4" "$3..$tip"
}

base_info() {
	base_tree
	REPO=$base_repo
	COMMIT=$base_commit
}

check_base_commit() {
	want=$(sed -n 's/^base-commit: //p' "$SERIES/0000-cover-letter.patch" 2>/dev/null || true)
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
			if [ "$s_commit $s_head $s_hash" = "$COMMIT $head $(series_hash)" ]; then
				keep_cover
				say "work tree is up to date with series/"
				echo "$WORK"
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
	for p in $(series_patches); do
		n=$((n + 1))
		am_one "$p"
	done
	git -C "$WORK" checkout -q -B series
	keep_cover
	echo "$COMMIT $(git -C "$WORK" rev-parse HEAD) $(series_hash)" >"$stamp"
	say "work tree: $WORK = $COMMIT + $np prerequisites + $n patches"
	echo "$WORK"
}

do_export() {
	base_info
	[ -d "$WORK/.git" ] || die "no work tree at $WORK: run 'make worktree' first"
	[ -z "$(git -C "$WORK" status --porcelain --untracked-files=no)" ] ||
		die "$WORK has uncommitted changes: commit them first"
	from=$(prereq_tip)
	git -C "$WORK" merge-base --is-ancestor "$from" HEAD ||
		die "$WORK's HEAD does not descend from the base commit and prerequisites ($from)"
	# An edit of the cover letter that the work tree has not read yet: take
	# its text, against the commits series/ holds (the last export or
	# application), which may be older than the work tree's.
	if [ -f "$SERIES/0000-cover-letter.patch" ] && [ "${FORCE:-}" != 1 ] &&
		[ "$(sha256sum <"$SERIES/0000-cover-letter.patch")" != \
			"$(cat "$WORK/.git/swapq-cover.src" 2>/dev/null)" ]; then
		s_head=
		[ -f "$WORK/.git/swapq-stamp" ] && read -r _ s_head _ <"$WORK/.git/swapq-stamp"
		[ -n "$s_head" ] && git -C "$WORK" cat-file -e "$s_head^{commit}" 2>/dev/null ||
			die "series/0000-cover-letter.patch was edited, but the commits it belongs to are not in $WORK: run 'make worktree' first (FORCE=1 drops the edit)"
		keep_cover "$s_head"
		say "read the edited cover letter"
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	if [ "$(git -C "$WORK" rev-list --count "$from..HEAD")" -gt 0 ]; then
		fmt_patch "$WORK" "$COMMIT" "$from" "$tmp/out"
		if [ -f "$WORK/.git/swapq-cover" ]; then
			"$TOP/scripts/post/cover.py" fill "$tmp/out/0000-cover-letter.patch" \
				"$WORK/.git/swapq-cover" >"$tmp/cover" ||
				die "cannot fill in the cover letter"
			mv "$tmp/cover" "$tmp/out/0000-cover-letter.patch"
		else
			say "note: no cover letter text yet; edit series/0000-cover-letter.patch, then 'make worktree'"
		fi
	else
		mkdir -p "$tmp/out"
	fi
	mkdir -p "$SERIES"
	rm -f "$SERIES"/*.patch
	for f in "$tmp"/out/*.patch; do
		[ -e "$f" ] && mv "$f" "$SERIES/"
	done
	echo "$COMMIT $(git -C "$WORK" rev-parse HEAD) $(series_hash)" >"$WORK/.git/swapq-stamp"
	if [ -f "$SERIES/0000-cover-letter.patch" ] && [ -f "$WORK/.git/swapq-cover" ]; then
		sha256sum <"$SERIES/0000-cover-letter.patch" >"$WORK/.git/swapq-cover.src"
	fi
	say "exported $(ls "$SERIES" | grep -c '\.patch$') files to $SERIES"
}

# base_lines: the work tree's base-commit and prerequisite-patch-id
# lines (the prerequisites it applied), by the export's own format-patch.
base_lines() {
	[ -d "$WORK/.git" ] || die "no work tree at $WORK: run 'make worktree' first"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	fmt_patch "$WORK" "$COMMIT" "$(prereq_tip)" "$tmp"
	grep -E '^(base-commit|prerequisite-patch-id): ' "$tmp/0000-cover-letter.patch" ||
		die "format-patch wrote no base-commit line for $WORK"
}

case ${1:-} in
base)
	base_info
	clone_at "$BASE_SRC" "$REPO" "$COMMIT"
	echo "$BASE_SRC"
	;;
work) do_work ;;
export) do_export ;;
patches) series_patches ;;
prereqs) prereq_patches ;;
prereq-tip)
	base_info
	prereq_tip ;;
base-lines)
	base_info
	base_lines ;;
*) die "usage: tree.sh base|work|export|patches|prereqs|prereq-tip|base-lines" ;;
esac
