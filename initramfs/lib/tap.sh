# Sourced by the guest suites: numbered TAP lines, failures counted.
n=0
failed=0

check() { # check TEXT COMMAND...: one TAP line for COMMAND's status
	text=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $text"
	else
		echo "not ok $n - $text"
		failed=$((failed + 1))
	fi
}
