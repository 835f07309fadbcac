# run/contract/contract.mk: build/contract.h, the C view of run/contract,
# for every host tool that reads it (included by run/matrix.mk and
# run/stats.mk; once, however many include it).
ifndef CONTRACT_MK
CONTRACT_MK := 1
CONTRACT_SOURCES = $(TOP)/run/contract/bits $(TOP)/run/contract/columns \
	$(TOP)/run/contract/tunables $(TOP)/run/contract/points \
	$(TOP)/run/contract/entries $(TOP)/run/contract/gen-contract-h

$(BUILD)/contract.h: $(CONTRACT_SOURCES)
	@mkdir -p $(BUILD)
	$(TOP)/run/contract/gen-contract-h $(TOP)/run/contract > $@.tmp && mv $@.tmp $@
endif
