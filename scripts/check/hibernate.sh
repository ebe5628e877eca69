#!/bin/sh
# hibernate.sh: the hibernation round trip, base and patched kernels side
# by side (make check-full).  Each round boots a kernel that swaps on a
# fresh virtio-blk disk image, fills memory with a pattern and hibernates
# to it (guest/tests/hibernate.c), then boots the same kernel with
# resume=/dev/vda, which must resume the image and find the pattern
# intact.  The two boots' logs are joined and judged as one run.  The
# image write goes through the hibernation slot allocator, page by page:
# the kernel's "Wrote N kbytes in S seconds" is its time (uncompressed,
# hibernate=nocompress, so that compression does not hide it).  Before
# it hibernates, the guest times the slot allocator alone through
# /dev/snapshot (SLOT_MB of slots, SLOT_ROUNDS rounds): the disk's time,
# which dominates the image write under QEMU, is not in that one.
#   REPS=7 interleaved pairs; HIBERNATE_MB=256 of pattern; MEM=3G
#   ICOUNT=1: under -icount (lib.sh icount_setup), where the times count
#   instructions, so that the two kernel images' other differences under
#   real-time TCG do not hide the allocator's own (make bench-cover).
# One result line per boot pair, then the ratios of the image write and
# of the time per slot with their 95% intervals (build/logs/hibernate.csv,
# build/logs/hibernate.txt; hibernate-icount.* with ICOUNT=1).
set -u
. "$(dirname "$0")/../lib.sh"
: "${REPS:=7}"
: "${HIBERNATE_MB:=256}"
: "${DISK_MB:=2048}"
pass=0 fail=0
csv=$BUILD/logs/hibernate${ICOUNT:+-icount}.csv
mkdir -p "$BUILD/logs"
need truncate python3

work_tree || die "no work tree"
src=$WORK
icount_setup
both_kernels plain
img=$BUILD/hibernate.img
trap 'rm -f "$img"' EXIT
printf '#%s accel=%s\nkernel,rep,write_ms,kbytes,slot_ns,ioctl_ns,queue_ms\n' "${ICOUNT:+ icount}" "$accel" >"$csv"

# round KERNEL VARIANT REP: one round trip, judged; the image write time
# goes to the csv.
round() {
	name=hibernate-$2-$3
	rm -f "$img"
	truncate -s "${DISK_MB}M" "$img" || die "cannot make $img"
	disk="${QEMU_EXTRA:-} -drive file=$img,if=virtio,format=raw,cache=unsafe"
	rm -f "$BUILD/logs/$name-2."*
	SRC=$src SELFTESTS= NOJUDGE=1 QEMU_EXTRA=$disk TIMEOUT=600 \
		APPEND="hibernate=nocompress" \
		"$TOP/scripts/kernel/boot.sh" "$1" hibernate "$name-1" >/dev/null
	# A first boot that finished its tests did not hibernate: judge it alone.
	if ! grep -q SWAPQ-DONE "$BUILD/logs/$name-1.results.log"; then
		SRC=$src SELFTESTS= NOJUDGE=1 QEMU_EXTRA=$disk TIMEOUT=600 \
			APPEND="resume=/dev/vda hibernate=nocompress" \
			"$TOP/scripts/kernel/boot.sh" "$1" resume-missed "$name-2" >/dev/null
	fi
	for f in console results; do
		cat "$BUILD/logs/$name-1.$f.log" "$BUILD/logs/$name-2.$f.log" 2>/dev/null |
			grep -v '^qemu_status=' >"$BUILD/logs/$name.$f.log"
	done
	# The status of the last boot stands for the pair.
	grep -h '^qemu_status=' "$BUILD/logs/$name-1.results.log" \
		"$BUILD/logs/$name-2.results.log" 2>/dev/null | tail -n1 >>"$BUILD/logs/$name.results.log"
	results_private python3 "$TOP/scripts/results.py" judge --name "$name" --skip-fails --src "$src" \
		--console "$BUILD/logs/$name.console.log" \
		--results "$BUILD/logs/$name.results.log" >"$BUILD/logs/$name.out"
	result "$name" $? "$(grep -h '^FAIL' "$BUILD/logs/$name.out" | head -n1) (see build/logs/$name.*)"
	write_time "$BUILD/logs/$name-1" "$2" "$3" >>"$csv"
}

# write_time LOG KERNEL REP: the csv row of the first boot whose logs are
# LOG.console.log and LOG.results.log: the image write, timed by the
# console's timestamps from "Saving image data pages" to "Image saving
# done" (the kernel's own "Wrote ... in S seconds" has 10 ms steps); the
# guest's time per hibernation slot; and the write from its 0% to its 90%
# progress line (queue_ms): every page of those given a slot and queued,
# without the wait for the disk's last completions after them, which an
# idle guest under -icount counts as the distance to its next timer.
write_time() {
	awk -v k="$2" -v r="$3" '
	function ts(l) { sub(/^[^[]*\[ */, "", l); sub(/\].*/, "", l); return l + 0 }
	/PM: Saving image data pages/ { t0 = ts($0) }
	/PM: Image saving progress: +0%/ { q0 = ts($0) }
	/PM: Image saving progress: +90%/ { q1 = ts($0) }
	/PM: Image saving done/ { t1 = ts($0) }
	/PM: .*Wrote [0-9]+ kbytes/ { sub(/.*Wrote /, ""); kb = $1 }
	/# hibslot: / { sub(/.* slots, /, ""); ns = $1; sub(/.*\), /, ""); nul = $1 }
	END { if (t0 && t1 && kb && ns) printf "%s,%s,%.1f,%s,%s,%s,%s\n", k, r, (t1 - t0) * 1000, kb, ns, nul,
		(q0 && q1 ? sprintf("%.1f", (q1 - q0) * 1000) : "") }' \
		"$1.console.log" "$1.results.log"
}

r=1
while [ "$r" -le "$REPS" ]; do
	say "hibernation round trip, round $r of $REPS"
	if [ $((r % 2)) = 1 ]; then order="base patched"; else order="patched base"; fi
	for v in $order; do
		case $v in base) k=$kb ;; *) k=$kp ;; esac
		round "$k" "$v" "$r"
	done
	r=$((r + 1))
done
python3 "$TOP/scripts/bench/bench.py" hibernate-report --csv "$csv" | tee "${csv%.csv}.txt"
results_end
