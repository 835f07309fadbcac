# run/lib/proc.sh: stopping what a tool started (sourced by run/check and
# run/flake-rate).
#
# descendants PID: PID's children, their children, and so on, one per line.
descendants() {
	for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		echo "$child"
		descendants "$child"
	done
}
# stop_tree PID: SIGTERM to PID and to every descendant, listed before any
# is signalled (a killed parent's children move to init and out of reach).
# A shell defers its traps while a foreground child runs; signalling the
# child too is what makes it stop now.
stop_tree() {
	set -- "$1" $(descendants "$1")
	kill -TERM "$@" 2>/dev/null
}
