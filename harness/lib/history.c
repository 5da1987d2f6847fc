#include "lib/history.h"
#include "lib/json.h"
#include "lib/util.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static char *history_path(const struct cmb_env *env)
{
	return env_cache(env, "history.json");
}

double history_get(const struct cmb_env *env, const char *key)
{
	char *path = history_path(env);
	json_object *root = json_object_from_file(path);
	double d = js_num(root, key, 0);

	json_object_put(root);
	free(path);
	return d;
}

json_object *history_get_obj(const struct cmb_env *env, const char *key)
{
	char *path = history_path(env);
	json_object *root = json_object_from_file(path), *v = NULL;

	if (root && json_object_object_get_ex(root, key, &v))
		json_object_get(v);
	else
		v = NULL;
	json_object_put(root);
	free(path);
	return v;
}

void history_put(const struct cmb_env *env, const char *key, json_object *v)
{
	char *path = history_path(env);
	json_object *root = json_object_from_file(path);
	const char *s;

	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		root = json_object_new_object();
	}
	json_object_object_add(root, key, v);
	mkdir_p(env->cache_dir);
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	write_file(path, s, strlen(s));
	json_object_put(root);
	free(path);
}

void history_set(const struct cmb_env *env, const char *key, double value)
{
	history_put(env, key, json_object_new_double(value));
}
