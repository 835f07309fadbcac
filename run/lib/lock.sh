# run/lib/lock.sh: one runner per results folder (sourced by run/matrix and
# run/flake-rate).
#
# lock_or_refuse TOOL DIR LOCK CODE: take LOCK (flock) on fd 9 for good, and
# write the caller's pid in it; what the caller starts inherits fd 9, so the
# lock is free only once the last of them has exited (a killed runner's
# guest still holds it).  If another holds it: say so naming every process
# that has LOCK open (or the pid written in it when none can be seen), and
# exit CODE.
lock_or_refuse() {
	exec 9>>"$3" || { echo "$1: cannot open $3" >&2; exit 1; }
	if ! flock -n 9; then
		exec 9>&-
		holders=$(find /proc/[0-9]*/fd -lname "$(realpath "$3")" 2>/dev/null | cut -d/ -f3 | sort -nu | paste -sd, -)
		echo "$1: $2 is in use ($3 is locked); refused. Held by:" >&2
		if [ -n "$holders" ]; then ps -o pid=,args= -p "$holders" | cut -c1-160 | sed "s|^ *|$1:   pid |" >&2
		else echo "$1:   pid $(cat "$3" 2>/dev/null) (as it wrote)" >&2; fi
		exit "$4"
	fi
	echo $$ > "$3"
}
