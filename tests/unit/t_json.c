/* SPDX-License-Identifier: BSD-2-Clause */
/* JSON writer: nesting, escaping, non-finite numbers; the output is checked by a parser when
 * python3 is present. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/json.h"
#include "core/base/result.h"
#include "tap.h"

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct nb_json j;
	struct nb_sysinfo si;

	nb_sysinfo_get(&si, NULL);
	nb_json_init(&j, f);
	nb_result_begin(&j, "unit", &si, NULL);
	nb_json_str(&j, "quote", "a\"b\\c\nd\x01");
	/* raw Latin-1 byte, a truncated sequence, an overlong '/', a surrogate, then good UTF-8 */
	nb_json_str(&j, "bytes", "\xff|\xc3|\xc0\xaf|\xed\xa0\x80|\xc3\xa9\xe2\x82\xac");
	nb_json_double(&j, "nan", NAN, 2);
	nb_json_double(&j, "pi", 3.14159, 2);
	nb_json_arr_begin(&j, "list");
	nb_json_u64(&j, NULL, 1);
	nb_json_obj_begin(&j, NULL);
	nb_json_bool(&j, "t", true);
	nb_json_obj_end(&j);
	nb_json_arr_end(&j);
	nb_json_arr_begin(&j, "empty");
	nb_json_arr_end(&j);
	nb_json_obj_end(&j);
	fclose(f);

	CHECK(strstr(buf, "\"schema\": \"netbench/1\"") != NULL, "schema field");
	CHECK(strstr(buf, "\"a\\\"b\\\\c\\nd\\u0001\"") != NULL, "escaping");
	CHECK(strstr(buf, "\"\\u00ff|\\u00c3|\\u00c0\\u00af|\\u00ed\\u00a0\\u0080|\xc3\xa9\xe2\x82\xac\"") !=
		  NULL,
	      "bytes that are not UTF-8 escaped, well-formed UTF-8 kept");
	CHECK(strstr(buf, "\"nan\": null") != NULL, "NaN written as null");
	CHECK(strstr(buf, "\"pi\": 3.14") != NULL, "decimals");
	CHECK(strstr(buf, "\"remote\": null") != NULL, "absent remote is null");
	if (system("command -v python3 >/dev/null 2>&1") == 0) {
		FILE *p = popen("python3 -c 'import json,sys; json.load(sys.stdin)'", "w");
		fputs(buf, p);
		CHECK(pclose(p) == 0, "python3 parses the document");
	} else {
		tap_skip("python3 not installed: JSON not parsed");
	}
	free(buf);
	return tap_done();
}
