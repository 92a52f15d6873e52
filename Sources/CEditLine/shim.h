#ifndef PIPESH_CEDITLINE_SHIM_H
#define PIPESH_CEDITLINE_SHIM_H

// Non-variadic wrappers around libedit: Swift cannot call el_set/history (variadic) directly,
// and cannot touch the stdin/stdout globals in Swift 6 mode.

#include <histedit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

typedef char *(*pipe_prompt_fn)(EditLine *);
typedef unsigned char (*pipe_key_fn)(EditLine *, int);

static inline EditLine *pipe_el_init(const char *program) { return el_init(program, stdin, stdout, stderr); }

static inline void pipe_el_end(EditLine *el) { el_end(el); }

/// The prompt; characters between two \1 (a colour sequence) take no columns.
static inline void pipe_el_prompt(EditLine *el, pipe_prompt_fn prompt) { el_set(el, EL_PROMPT_ESC, prompt, '\1'); }

static inline void pipe_el_editor(EditLine *el, const char *mode) { el_set(el, EL_EDITOR, mode); }

static inline void pipe_el_history(EditLine *el, History *history_) { el_set(el, EL_HIST, history, history_); }

/// Binds `key` to a named function implemented by `fn`.
static inline void pipe_el_addfn(EditLine *el, const char *name, const char *help, pipe_key_fn fn, const char *key) {
  el_set(el, EL_ADDFN, name, help, fn);
  el_set(el, EL_BIND, key, name, (char *)NULL);
}

static inline void pipe_el_bind(EditLine *el, const char *key, const char *command) {
  el_set(el, EL_BIND, key, command, (char *)NULL);
}

/// Turns off terminal signals while editing, so Ctrl-C arrives as a key the editor handles.
static inline void pipe_el_no_isig(EditLine *el) { el_set(el, EL_SETTY, "-d", "-isig", (char *)NULL); }

static inline void pipe_el_refresh(EditLine *el) { el_set(el, EL_REFRESH); }

/// Puts the terminal in libedit's edit (raw) mode now, or back.
static inline void pipe_el_prep_term(EditLine *el, int raw) { el_set(el, EL_PREP_TERM, raw); }

/// Reads ~/.editrc (or $EDITRC).
static inline int pipe_el_source(EditLine *el) { return el_source(el, NULL); }

static inline const char *pipe_el_gets(EditLine *el, int *count) { return el_gets(el, count); }

static inline const LineInfo *pipe_el_line(EditLine *el) { return el_line(el); }

static inline int pipe_el_insert(EditLine *el, const char *text) { return el_insertstr(el, text); }

static inline void pipe_el_delete(EditLine *el, int count) { el_deletestr(el, count); }

static inline int pipe_el_cursor(EditLine *el, int count) { return el_cursor(el, count); }

static inline void pipe_el_resize(EditLine *el) { el_resize(el); }

typedef int (*pipe_getc_fn)(EditLine *, wchar_t *);

/// Makes `fn` the function libedit reads each character with.
static inline void pipe_el_getcfn(EditLine *el, pipe_getc_fn fn) { el_set(el, EL_GETCFN, fn); }

/// Reads a character with libedit's own function (which decodes multibyte characters and handles
/// signals), from inside `fn`, the one set: libedit has already taken what a macro pushed back.
static inline int pipe_el_builtin_getc(EditLine *el, wchar_t *character, pipe_getc_fn fn) {
  el_set(el, EL_GETCFN, EL_BUILTIN_GETCFN);
  int count = el_wgetc(el, character);
  el_set(el, EL_GETCFN, fn);
  return count;
}

/// The columns a character takes on the terminal (wcwidth: glibc declares it only for X/Open).
extern int wcwidth(wchar_t character);
static inline int pipe_character_width(unsigned int character) { return wcwidth((wchar_t)character); }

static inline History *pipe_history_init(void) { return history_init(); }

static inline void pipe_history_end(History *h) { history_end(h); }

static inline void pipe_history_setup(History *h, int size) {
  HistEvent event;
  history(h, &event, H_SETSIZE, size);
  history(h, &event, H_SETUNIQUE, 1);
}

static inline void pipe_history_enter(History *h, const char *line) {
  HistEvent event;
  history(h, &event, H_ENTER, line);
}

static inline void pipe_history_load(History *h, const char *path) {
  HistEvent event;
  history(h, &event, H_LOAD, path);
}

static inline void pipe_history_save(History *h, const char *path) {
  HistEvent event;
  history(h, &event, H_SAVE, path);
}

/// The entry `index` back from the newest (0 = newest), or NULL.
static inline const char *pipe_history_entry(History *h, int index) {
  HistEvent event;
  if (history(h, &event, H_FIRST) < 0) return NULL;
  for (int i = 0; i < index; i++) {
    if (history(h, &event, H_NEXT) < 0) return NULL;
  }
  return event.str;
}

static inline int pipe_history_count(History *h) {
  HistEvent event;
  if (history(h, &event, H_GETSIZE) < 0) return 0;
  return event.num;
}

#endif
