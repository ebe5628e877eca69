#!/bin/sh
# config-check.sh DOTCONFIG SRCTREE FRAGMENT...: every symbol a fragment
# asks for must have survived olddefconfig.  Names every one that did not.
# A symbol from config/series.config that the tree does not define at all
# is dropped with a note (the base tree lacks the series' own symbols).
set -eu
. "$(dirname "$0")/lib.sh"
dotconfig=$1
src=$2
shift 2
[ -r "$dotconfig" ] || die "no config at $dotconfig"
missing=
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		if [ "${frag##*/}" = series.config ] &&
			! grep -rqs --include='Kconfig*' -x "config ${sym#CONFIG_}" "$src"; then
			say "note: $sym is not defined in this tree (series not applied); not required"
			continue
		fi
		case $line in
		*"is not set")
			grep -q "^$sym=" "$dotconfig" && missing="$missing $sym(should be unset)" ;;
		*)
			grep -qx -- "$line" "$dotconfig" ||
				missing="$missing $sym(wanted ${line#*=}, got $(sed -n "s/^$sym=//p" "$dotconfig" | grep . || echo unset))" ;;
		esac
	done <"$frag"
done
[ -z "$missing" ] || die "config symbols lost after olddefconfig:$missing"
