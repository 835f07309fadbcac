# run/matrix.mk: the matrix runner's host tool (included by the Makefile).
MATRIX_PLAN_CFLAGS = -Wall -Wextra -O2

$(BUILD)/matrix-plan: $(TOP)/run/matrix-plan/matrix-plan.c
	@mkdir -p $(BUILD)
	$(CC) $(MATRIX_PLAN_CFLAGS) -o $@ $<

.PHONY: matrix-tools
matrix-tools: $(BUILD)/matrix-plan
