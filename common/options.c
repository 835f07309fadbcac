/* common/options.c: the one option parser of the C tools (options.h):
 * glibc's getopt_long does the parsing; this file turns the spec into its
 * tables and its errors into the tools' one message format. */
#include "options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(PJT_VERSION) || !defined(PJT_SERIES)
#error "PJT_VERSION and PJT_SERIES come from the VERSION file: build with common/common.mk's COMMON_CFLAGS"
#endif

struct opt_taken {
	const char *name, *value;
};

/* getopt_long's values: a one-letter option is its letter, the spec's
 * I-th name OPT_SPEC + I. */
enum { OPT_HELP = 0x100, OPT_VERSION, OPT_SPEC };

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

static void *xmalloc(const char *tool, size_t size)
{
	void *p = malloc(size);

	if (!p) {
		fprintf(stderr, "%s: out of memory\n", tool);
		exit(1);
	}
	return p;
}

static const char *dash(const char *name)
{
	return name[1] ? "--" : "-";
}

/* "--re=3" is a prefix of more than one long option (getopt_long's
 * "ambiguous"): name them; else it matches none. */
static void __attribute__((noreturn))
unknown_long(const char *tool, const char *arg, const struct option *longopts)
{
	size_t len = strcspn(arg + 2, "="), n = 0, size = 1;
	const struct option *o;
	char *list;

	for (o = longopts; o->name; o++)
		if (!strncmp(o->name, arg + 2, len)) {
			n++;
			size += strlen(o->name) + 4;
		}
	if (n < 2 || !len)
		opt_error(tool, "unknown option %s", arg);
	list = xmalloc(tool, size);
	*list = 0;
	for (o = longopts; o->name; o++)
		if (!strncmp(o->name, arg + 2, len))
			strcat(strcat(strcat(list, *list ? ", " : ""), "--"), o->name);
	opt_error(tool, "ambiguous option %s (%s)", arg, list);
}

void opt_init(struct opt_parser *p, const char *tool, const char *spec,
	      void (*usage)(const struct opt_parser *p), int argc, char **argv)
{
	/* the spec's names, split in place: at most one in two bytes */
	size_t max = strlen(spec) / 2 + 1;
	char *names = strcpy(xmalloc(tool, strlen(spec) + 1), spec), *s;
	const char **name = xmalloc(tool, max * sizeof(*name));
	int *has_value = xmalloc(tool, max * sizeof(*has_value));
	struct option *longopts = xmalloc(tool, (max + 3) * sizeof(*longopts));
	/* "-": operands come back in order (as 1), whatever POSIXLY_CORRECT
	 * says; ":": a missing value is told from an unknown option.  A flag
	 * takes an optional value (h::), so that -q=1 or --report=x are
	 * caught as a value given to a flag, not read as -q -= -1. */
	char *shortopts = strcpy(xmalloc(tool, 3 * max + 6), "-:h::");
	char **args = xmalloc(tool, (argc + 2) * sizeof(*args));
	enum { NONE, UNKNOWN, NEEDS_VALUE, NO_VALUE } error = NONE;
	const char *what = NULL; /* the option in error */
	char unknown_short[3] = "-?";
	int n = 0, nlong = 0, help = 0, c;

	memset(p, 0, sizeof(*p));
	p->tool = tool;
	p->operands = xmalloc(tool, (argc + 1) * sizeof(*p->operands));
	p->taken = xmalloc(tool, (argc + 1) * sizeof(*p->taken));
	for (s = strtok(names, " "); s; s = strtok(NULL, " "), n++) {
		size_t len = strlen(s);

		has_value[n] = len > 1 && s[len - 1] == '=';
		if (has_value[n])
			s[--len] = 0;
		name[n] = s;
		if (len == 1)
			strcat(strcat(shortopts, s), has_value[n] ? ":" : "::");
		else
			longopts[nlong++] = (struct option){
				s, has_value[n] ? required_argument : optional_argument, NULL, OPT_SPEC + n };
	}
	longopts[nlong++] = (struct option){ "help", optional_argument, NULL, OPT_HELP };
	longopts[nlong++] = (struct option){ "version", optional_argument, NULL, OPT_VERSION };
	longopts[nlong] = (struct option){ NULL, 0, NULL, 0 };

	args[0] = (char *)tool;
	memcpy(args + 1, argv, argc * sizeof(*args));
	args[argc + 1] = NULL;
	opterr = 0;
	optind = 0; /* glibc: start afresh, whatever was parsed before */
	while ((c = getopt_long(argc + 1, args, shortopts, longopts, NULL)) != -1) {
		int opt = c == ':' ? optopt : c, i = -1;

		if (c == 1) {
			p->operands[p->noperands++] = optarg;
			continue;
		}
		/* after -h or --version only operands count; after an error,
		 * a -h or --version still wins */
		if (help)
			continue;
		if (c == '?') { /* unknown (or, long, ambiguous) */
			if (!error) {
				error = UNKNOWN;
				unknown_short[1] = (char)optopt;
				what = optopt ? unknown_short : args[optind - 1];
			}
			continue;
		}
		if (opt >= OPT_SPEC)
			i = opt - OPT_SPEC;
		else if (opt != OPT_HELP && opt != OPT_VERSION && opt != 'h')
			for (i = 0; i < n && (name[i][0] != opt || name[i][1]); i++)
				;
		if (c == ':' || (optarg && (i < 0 || !has_value[i]))) {
			if (!error) {
				error = c == ':' ? NEEDS_VALUE : NO_VALUE;
				what = i >= 0 ? name[i] : opt == 'h' ? "h" : opt == OPT_HELP ? "help" : "version";
			}
		} else if (i < 0) {
			help = opt;
		} else if (!error) {
			p->taken[p->ntaken].name = name[i];
			p->taken[p->ntaken++].value = optarg;
		}
	}
	while (optind <= argc) /* what follows "--" */
		p->operands[p->noperands++] = args[optind++];
	p->operands[p->noperands] = NULL;

	if (help == OPT_VERSION) {
		printf("%s (pjt-sched) %s\nseries %s\n", tool, PJT_VERSION, PJT_SERIES);
		exit(0);
	}
	if (help) {
		usage(p);
		exit(0);
	}
	if (error == UNKNOWN && what != unknown_short)
		unknown_long(tool, what, longopts);
	if (error == UNKNOWN)
		opt_error(tool, "unknown option %s", what);
	if (error)
		opt_error(tool, "%s%s %s", dash(what), what, error == NEEDS_VALUE ? "needs a value" : "takes no value");
}

int opt_next(struct opt_parser *p)
{
	if (p->next >= p->ntaken)
		return 0;
	p->name = p->taken[p->next].name;
	p->value = p->taken[p->next++].value;
	return 1;
}

int opt_is(const struct opt_parser *p, const char *name)
{
	return !strcmp(p->name, name);
}
