/* common/options.h: the one option parser of the C tools (build/pjt-stats,
 * build/matrix-plan, build/pelt-check, pjtload), the C twin of
 * run/lib/options.sh.
 *
 * The spec lists the options as options.sh does: NAME a flag, NAME= one
 * with a value; a one-letter NAME is written -o, the others --name.
 * Accepted: --name V, --name=V, -o V, -oV, options before, between or after
 * operands (end_at_operand set: the first operand ends them), and "--"
 * ending options.  -h/--help print the usage (stdout) and exit 0,
 * --version the project's and the series' version (the VERSION file,
 * passed by make as PJT_VERSION and PJT_SERIES) and exit 0.  Errors
 * (opt_error): "TOOL: message", then "TOOL: see TOOL --help", exit 2.
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
	const char *spec;	/* "o= q declare= report" */
	/* Prints the --help text on stdout; p->operands holds every operand
	 * of the command line (pjtload MODE --help prints MODE's). */
	void (*usage)(const struct opt_parser *p);
	int end_at_operand;	/* the first operand ends the options */
	const char *name;	/* the option opt_next() took, without dashes */
	const char *value;	/* its value; NULL for a flag */
	char **operands;	/* in order, after opt_next() returned 0 */
	int noperands;
	/* the parser's own */
	int argc, i, ended;
	char **argv;
	char name_buf[64];
};

/* argv: the arguments only (no program name). */
void opt_init(struct opt_parser *p, const char *tool, const char *spec,
	      void (*usage)(const struct opt_parser *p), int argc, char **argv);
/* 1: one option in p->name, p->value; 0: none left (p->operands). */
int opt_next(struct opt_parser *p);
/* The option taken is NAME (as in the spec, without dashes or '='). */
int opt_is(const struct opt_parser *p, const char *name);
/* "TOOL: message" and "TOOL: see TOOL --help" on stderr; exit 2. */
void opt_error(const char *tool, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* "TOOL (pjt-sched) X" and "series vN" on stdout. */
void opt_version(const char *tool);

#endif
