# run/lib/plan.sh: build/matrix-plan's messages in the name of the tool that
# ran it (sourced by run/matrix and run/distribute).  The planner is not on
# PATH and the options it was given are the caller's, so its messages and
# its help pointer are the caller's.
# plan_messages TOOL FILE: FILE (the planner's stderr) on stderr, as TOOL's.
plan_messages() {
	sed -e "s|^matrix-plan: see matrix-plan --help\$|$1: see $1 --help|" \
		-e "s|^matrix-plan: |$1: |" "$2" >&2
}
