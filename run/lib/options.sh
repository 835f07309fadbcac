# run/lib/options.sh: the one option parser of the shell tools (sourced),
# util-linux's getopt(1) underneath; the shell twin of common/options.c.
# Host only: no guest script sources it (the image carries no copy).
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
# --name=V, -j V, -jV, an unambiguous prefix of a --name (as getopt(1)
# takes it), options before, between or after operands, and "--" ending
# options.  -h/--help anywhere print usage and exit 0, --version the
# project's and the series' version (the VERSION file) and exit 0,
# whatever else the command line holds.  option is called for each
# option in order once the whole command line is parsed.
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

# getopt(1) with this spec's tables ($_o_short, $_o_long) on "$@";
# POSIXLY_CORRECT would stop it at the first operand.
opt_getopt() {
	(unset POSIXLY_CORRECT GETOPT_COMPATIBLE
	 LC_ALL=C exec getopt -n getopt -o "$_o_short" -l "$_o_long" -- "$@")
}

parse_options() {
	_o_spec=" $1 "
	shift
	# One-letter names go to -o; a flag takes an optional value there
	# (q::), so that -q=1 is a flag given a value, not -q -= -1.
	_o_short=h:: _o_long=
	for _o_name in $_o_spec; do
		case $_o_name in
		?=) _o_short=$_o_short${_o_name%=}: ;;
		?) _o_short=$_o_short$_o_name:: ;;
		*=) _o_long=$_o_long${_o_name%=}:, ;;
		*) _o_long=$_o_long$_o_name, ;;
		esac
	done
	_o_long=${_o_long}help,version
	[ "${options_end_at_operand:-0}" = 0 ] || _o_short=+$_o_short
	_o_rc=0 _o_error=
	_o_out=$(opt_getopt "$@" 2>/dev/null) || _o_rc=$?
	case $_o_rc in
	0) ;;
	1) # glibc's first message in the tools' words
		_o_error=$(opt_getopt "$@" 2>&1 >/dev/null | sed -n "1{
			s/^getopt: //
			s/^unrecognized option '\(.*\)'\$/unknown option \1/
			s/^invalid option -- '\(.*\)'\$/unknown option -\1/
			s/^option requires an argument -- '\(.*\)'\$/-\1 needs a value/
			s/^option '\(.*\)' requires an argument\$/\1 needs a value/
			s/^option '\(.*\)' doesn't allow an argument\$/\1 takes no value/
			s/^option '\(--=.*\)' is ambiguous; .*/unknown option \1/
			s/^option '\(.*\)' is ambiguous; possibilities: '\(.*\)'\$/ambiguous option \1 (\2)/
			/^ambiguous/s/' '/, /g
			p
		}") ;;
	*) echo "$TOOL: getopt(1) failed (exit $_o_rc): util-linux's getopt is needed" >&2
	   exit 1 ;;
	esac
	# Its output: the options, each with its value (a one-letter flag's
	# empty unless one was attached), "--", the operands.
	eval "set -- $_o_out"
	_o_calls=
	while [ "$1" != -- ]; do
		_o_opt=$1 _o_name=${1#-}
		_o_name=${_o_name#-}
		shift
		case $_o_spec in
		*" $_o_name= "*)
			_o_calls="$_o_calls option $_o_name $(opt_quote "$1");"
			shift
			continue ;;
		esac
		case $_o_opt in
		-?)
			_o_val=$1
			shift
			if [ -n "$_o_val" ]; then
				_o_error=${_o_error:-"$_o_opt takes no value"}
				continue
			fi ;;
		esac
		case $_o_opt in
		-h|--help) usage; exit 0 ;;
		--version) print_version; exit 0 ;;
		esac
		_o_calls="$_o_calls option $_o_name;"
	done
	shift
	[ -z "$_o_error" ] || usage_error "$_o_error"
	operands=
	for _o_arg; do operands="$operands $(opt_quote "$_o_arg")"; done
	eval "$_o_calls"
}
