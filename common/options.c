/* common/options.c: the one option parser of the C tools (options.h). */
#include "options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(PJT_VERSION) || !defined(PJT_SERIES)
#error "PJT_VERSION and PJT_SERIES come from the VERSION file: build with common/common.mk's COMMON_CFLAGS"
#endif

void opt_error(const char *tool, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tool);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s: see %s --help\n", tool, tool);
	exit(2);
}

void opt_version(const char *tool)
{
	printf("%s (pjt-sched) %s\nseries %s\n", tool, PJT_VERSION, PJT_SERIES);
}

void opt_init(struct opt_parser *p, const char *tool, const char *spec,
	      void (*usage)(const struct opt_parser *p), int argc, char **argv)
{
	memset(p, 0, sizeof(*p));
	p->tool = tool;
	p->spec = spec;
	p->usage = usage;
	p->argc = argc;
	p->argv = argv;
	p->operands = malloc((argc + 1) * sizeof(*p->operands));
	if (!p->operands) {
		fprintf(stderr, "%s: out of memory\n", tool);
		exit(1);
	}
}

/* NAME (LEN bytes) in the spec: 0 not there, 1 a flag, 2 takes a value. */
static int spec_kind(const char *spec, const char *name, size_t len)
{
	const char *s = spec;

	for (;;) {
		size_t n;

		s += strspn(s, " ");
		n = strcspn(s, " ");
		if (!n)
			return 0;
		if (s[n - 1] == '=' && n - 1 == len && !strncmp(s, name, len))
			return 2;
		if (n == len && !strncmp(s, name, len))
			return 1;
		s += n;
	}
}

/* An operand; with end_at_operand the first one ends the options. */
static void operand(struct opt_parser *p, char *arg)
{
	p->operands[p->noperands++] = arg;
	p->operands[p->noperands] = NULL;
	if (p->end_at_operand)
		p->ended = 1;
}

/* -h, --help: the usage, told every operand of the command line. */
static void __attribute__((noreturn)) help(struct opt_parser *p)
{
	while (p->i < p->argc) {
		char *arg = p->argv[p->i++];

		if (p->ended || arg[0] != '-' || !arg[1])
			operand(p, arg);
		else if (!strcmp(arg, "--"))
			p->ended = 1;
		else if (p->i < p->argc && !strchr(arg, '=') &&
			 ((arg[1] == '-' && spec_kind(p->spec, arg + 2, strlen(arg + 2)) == 2) ||
			  (arg[1] != '-' && !arg[2] && spec_kind(p->spec, arg + 1, 1) == 2)))
			p->i++; /* an option's value is not an operand */
	}
	p->usage(p);
	exit(0);
}

int opt_next(struct opt_parser *p)
{
	while (p->i < p->argc) {
		char *arg = p->argv[p->i++];
		const char *name, *val = NULL, *dash;
		size_t len;
		int kind;

		if (p->ended || arg[0] != '-' || !arg[1]) {
			operand(p, arg);
			continue;
		}
		if (!strcmp(arg, "--")) {
			p->ended = 1;
			continue;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			help(p);
		if (!strcmp(arg, "--version")) {
			opt_version(p->tool);
			exit(0);
		}
		if (arg[1] == '-') { /* --name, --name=V */
			name = arg + 2;
			len = strcspn(name, "=");
			if (name[len])
				val = name + len + 1;
		} else { /* -o, -oV */
			name = arg + 1;
			len = 1;
			if (name[1])
				val = name + 1;
		}
		kind = len < sizeof(p->name_buf) ? spec_kind(p->spec, name, len) : 0;
		if (!kind)
			opt_error(p->tool, "unknown option %s", arg);
		memcpy(p->name_buf, name, len);
		p->name_buf[len] = 0;
		p->name = p->name_buf;
		dash = len == 1 ? "-" : "--";
		if (kind == 1 && val)
			opt_error(p->tool, "%s%s takes no value", dash, p->name);
		if (kind == 2 && !val) {
			if (p->i >= p->argc)
				opt_error(p->tool, "%s%s needs a value", dash, p->name);
			val = p->argv[p->i++];
		}
		p->value = val;
		return 1;
	}
	return 0;
}

int opt_is(const struct opt_parser *p, const char *name)
{
	return !strcmp(p->name, name);
}
