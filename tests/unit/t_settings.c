/* SPDX-License-Identifier: BSD-2-Clause */
/* A run's settings group it: two tput runs of one label, one at -t 2 cut short by Ctrl-C and one
 * at -t 1, are not repeated runs of one another (they were averaged into "1k 453239 +-3117095");
 * runs that differ only in where they were aimed (agent, port) still are. */
#include <stdio.h>
#include <string.h>

#include "core/store/group.h"
#include "core/store/settings.h"
#include "tap.h"

static const char *docs[] = {
    "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"parameters\":{\"agent\":\"10.0.0.1\","
    "\"port\":5001,\"protocol\":\"tcp\",\"time_s\":2.000,\"congestion\":null,\"sizes\":[1024]},"
    "\"interrupted\":true}",
    "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"parameters\":{\"agent\":\"10.0.0.2\","
    "\"port\":5002,\"protocol\":\"tcp\",\"time_s\":1.000,\"congestion\":null,\"sizes\":[1024,"
    "8192]},\"interrupted\":false}",
    "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"parameters\":{\"agent\":\"10.0.0.3\","
    "\"port\":5003,\"protocol\":\"tcp\",\"time_s\":1.000,\"congestion\":null,\"sizes\":[1024]},"
    "\"interrupted\":false}",
};

int main(void)
{
	struct nb_store_tag set[3][NB_SETTINGS_MAX];
	struct nb_group_in in[3];
	char names[3][NB_GROUP_NAME_MAX], split[256];
	char err[200] = "";

	for (int i = 0; i < 3; i++) {
		struct nb_jdoc *d;
		CHECK(nb_jdoc_parse(docs[i], strlen(docs[i]), &d, err, sizeof(err)) == 0,
		      "document %d parses (%s)", i + 1, err);
		size_t n = nb_doc_settings(d, set[i], NB_SETTINGS_MAX);
		nb_jdoc_free(d);
		in[i] = (struct nb_group_in){
		    .id = i + 1, .test = "tput", .label = "A", .tags = set[i], .ntags = n};
	}
	CHECK(in[0].ntags == 3 && !strcmp(set[0][0].key, "protocol") &&
		  !strcmp(set[0][1].key, "time_s") && !strcmp(set[0][1].value, "2") &&
		  !strcmp(set[0][2].key, "interrupted") && !strcmp(set[0][2].value, "true"),
	      "settings: protocol, time_s=2, interrupted; not the agent, port, nulls or lists "
	      "(%zu)",
	      in[0].ntags);
	CHECK(in[1].ntags == 2, "a run that ran whole has no 'interrupted' setting (%zu)",
	      in[1].ntags);
	size_t nsplit = nb_group_names(in, 3, names, split, sizeof(split));
	CHECK(nsplit == 1 && !strcmp(split, "A (its runs differ in time_s, interrupted)"),
	      "the grouping says what differs: %s", split);
	CHECK(!strcmp(names[0], "A [time_s=2, interrupted=true]") &&
		  !strcmp(names[1], "A [time_s=1, interrupted=-]") && !strcmp(names[1], names[2]),
	      "the interrupted -t 2 run apart; the two -t 1 runs (other agents, ports, sizes) "
	      "together: %s | %s | %s",
	      names[0], names[1], names[2]);
	return tap_done();
}
