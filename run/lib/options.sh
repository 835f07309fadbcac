# run/lib/options.sh: the one option parser of the shell tools (sourced).
#
# A tool sets TOOL (its name as typed, e.g. run/merge), defines
#   option NAME [V]  take one option: NAME without dashes, V its value
#   usage            print the --help text on stdout; by default (defined
#                    here) the tool's header comment, from line 2 to the
#                    first "set -" line, without its "# "
# and then does
#   parse_options 'no-report out= j=' "$@"; eval "set -- $operands"
# The spec lists the options: NAME a flag, NAME= one with a value; a
# one-letter NAME is written -j, the others --name.  Accepted: --name V,
# --name=V, -j V, -jV, options before, between or after operands, and
# "--" ending options.  -h/--help print usage and exit 0, --version the
# project's and the series' version (the VERSION file) and exit 0.
# A tool whose operands end in a command with arguments of its own
# (run/phase NAME CMD ARG...) sets options_end_at_operand=1 first: the
# first operand then ends the options, as "--" does.
# Errors (usage_error): "TOOL: message", then "TOOL: see TOOL --help",
# exit 2.

usage() { sed -n '2,/^set -/s/^# \{0,1\}//p' "$0"; }

usage_error() {
	echo "$TOOL: $*" >&2
	echo "$TOOL: see $TOOL --help" >&2
	exit 2
}

# The VERSION file: "pjt-sched: X" and "series: vN" lines.
print_version() {
	_o_vf=$(dirname "$0")/../VERSION
	[ -r "$_o_vf" ] || _o_vf=$(dirname "$0")/../../VERSION
	echo "$TOOL (pjt-sched) $(sed -n 's/^pjt-sched: //p' "$_o_vf")"
	echo "series $(sed -n 's/^series: //p' "$_o_vf")"
}

# One word, quoted for eval.
opt_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

parse_options() {
	_o_spec=" $1 "
	shift
	operands=
	while [ $# -gt 0 ]; do
		_o_arg=$1
		shift
		_o_has=0
		case $_o_arg in
		--)
			for _o_arg; do operands="$operands $(opt_quote "$_o_arg")"; done
			return 0 ;;
		-h|--help) usage; exit 0 ;;
		--version) print_version; exit 0 ;;
		--?*=*) _o_name=${_o_arg%%=*}; _o_name=${_o_name#--}; _o_val=${_o_arg#*=}; _o_has=1 ;;
		--?*) _o_name=${_o_arg#--} ;;
		-?) _o_name=${_o_arg#-} ;;
		-?*) # -jV: a one-letter option with its value attached
			_o_name=${_o_arg#-}; _o_val=${_o_name#?}; _o_name=${_o_name%"$_o_val"}; _o_has=1 ;;
		*)
			operands="$operands $(opt_quote "$_o_arg")"
			if [ "${options_end_at_operand:-0}" = 1 ]; then
				for _o_arg; do operands="$operands $(opt_quote "$_o_arg")"; done
				return 0
			fi
			continue ;;
		esac
		case $_o_name in
		?) _o_dash=- ;;
		*) _o_dash=-- ;;
		esac
		case $_o_spec in
		*" $_o_name= "*)
			if [ "$_o_has" = 0 ]; then
				[ $# -gt 0 ] || usage_error "$_o_dash$_o_name needs a value"
				_o_val=$1
				shift
			fi
			option "$_o_name" "$_o_val" ;;
		*" $_o_name "*)
			[ "$_o_has" = 0 ] || usage_error "$_o_dash$_o_name takes no value"
			option "$_o_name" ;;
		*) usage_error "unknown option $_o_arg" ;;
		esac
	done
}
