#include "lib/json.h"

#include <stdbool.h>

static json_object *member(json_object *o, const char *key)
{
	json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

json_object *js_at(json_object *o, const char *pointer)
{
	json_object *v = NULL;

	return o && !json_pointer_get(o, pointer, &v) ? v : NULL;
}

const char *js_str(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

long long js_int(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && is_number(v) ? json_object_get_int64(v) : -1;
}

bool js_bool(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

double js_num(json_object *o, const char *key, double absent)
{
	json_object *v = member(o, key);

	return v && is_number(v) ? json_object_get_double(v) : absent;
}

json_object *js_arr(json_object *o, const char *key)
{
	json_object *v = member(o, key);

	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}
