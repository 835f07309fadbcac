/* common/options.h: the one option parser of the C tools (build/pjt-stats,
 * build/matrix-plan, build/pelt-check, pjtload), glibc's getopt_long
 * underneath; the C twin of run/lib/options.sh (getopt(1) underneath).
 *
 * The spec lists the options as options.sh does: NAME a flag, NAME= one
 * with a value; a one-letter NAME is written -o, the others --name.
 * Accepted: --name V, --name=V, -o V, -oV, an unambiguous prefix of a
 * --name (as getopt_long takes it), options before, between or after
 * operands, and "--" ending options.  -h/--help anywhere print the usage
 * (stdout) and exit 0, --version the project's and the series' version
 * (the VERSION file, passed by make as PJT_VERSION and PJT_SERIES) and
 * exit 0, whatever else the command line holds.  Errors (opt_error):
 * "TOOL: message", then "TOOL: see TOOL --help", exit 2.
 *
 *	struct opt_parser p;
 *
 *	opt_init(&p, "run/stats", "o= q declare= report", usage, argc - 1, argv + 1);
 *	while (opt_next(&p))
 *		if (opt_is(&p, "o"))
 *			outdir = p.value;
 *		else ...
 *	then p.operands[0 .. p.noperands - 1]
 */
#ifndef PJT_OPTIONS_H
#define PJT_OPTIONS_H

struct opt_parser {
	const char *tool;	/* the name in messages and --version: "run/stats" */
	const char *name;	/* the option opt_next() took, without dashes */
	const char *value;	/* its value; NULL for a flag */
	char **operands;	/* in order, from opt_init() on */
	int noperands;
	/* the parser's own: the options opt_init() took, in order */
	struct opt_taken *taken;
	int ntaken, next;
};

/* Parses the whole command line; argv: the arguments only (no program
 * name).  usage prints the --help text on stdout; p->operands then holds
 * every operand of the command line (pjtload MODE --help prints MODE's). */
void opt_init(struct opt_parser *p, const char *tool, const char *spec,
	      void (*usage)(const struct opt_parser *p), int argc, char **argv);
/* 1: one option in p->name, p->value; 0: none left. */
int opt_next(struct opt_parser *p);
/* The option taken is NAME (as in the spec, without dashes or '='). */
int opt_is(const struct opt_parser *p, const char *name);
/* "TOOL: message" and "TOOL: see TOOL --help" on stderr; exit 2. */
void opt_error(const char *tool, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#endif
