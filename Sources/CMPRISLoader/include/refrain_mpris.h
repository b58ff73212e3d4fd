#ifndef REFRAIN_MPRIS_H
#define REFRAIN_MPRIS_H
// MPRIS 2 over GDBus, behind a narrow table of calls (after cmus's op.h).
//
// The server is a plugin, librefrain-mpris.so (Sources/CMPRIS: thread.c the D-Bus thread,
// object.c the exported object, snapshot.c what the player's thread sets and the requests it
// takes, notify.c track notifications). It alone links GIO, GObject and GLib, so a Refrain
// that never starts MPRIS (no session bus, `desktop.mpris = false`, a scan, `refrain ctl`)
// never maps them. CMPRISLoader opens the plugin on the first refrain_mpris_load or
// refrain_mpris_start, from the directory of the running binary or ../lib/refrain beside it,
// and each call below forwards to the plugin's table.
//
// The server owns one thread with its own GMainContext: it connects to the session bus,
// owns the bus name, exports /org/mpris/MediaPlayer2 and answers every Get from a snapshot
// of the properties that the player's thread keeps up to date with the setters below. The
// player's thread never waits for the bus: setters copy under a mutex and hand the signals to
// the D-Bus thread. Method calls and property writes from clients come back as requests in
// a queue, announced by one byte on a pipe that the player's poll() loop watches.
//
// Position is answered without the player: the snapshot holds an anchor (the position at a
// monotonic time, and whether it advances), and a Get computes the position from it.
//
// No GLib type appears here, so Swift imports this header alone.
#include <stddef.h>
#include <stdint.h>

/// A running MPRIS server; created by refrain_mpris_start, released by refrain_mpris_stop.
typedef struct refrain_mpris refrain_mpris;

/// What a request from the bus asks for (or what happened to the connection).
typedef enum refrain_mpris_request_kind {
  /// The name is owned and the object exported; `text` is the bus name.
  REFRAIN_MPRIS_CONNECTED = 1,
  /// No session bus, or the bus refused both names; `text` says why. The thread has ended.
  REFRAIN_MPRIS_UNAVAILABLE = 2,
  /// The bus closed the connection; `text` says why. The thread has ended.
  REFRAIN_MPRIS_DISCONNECTED = 3,
  /// org.mpris.MediaPlayer2.Quit.
  REFRAIN_MPRIS_QUIT = 10,
  /// Player.Next.
  REFRAIN_MPRIS_NEXT = 11,
  /// Player.Previous.
  REFRAIN_MPRIS_PREVIOUS = 12,
  /// Player.Pause.
  REFRAIN_MPRIS_PAUSE = 13,
  /// Player.PlayPause.
  REFRAIN_MPRIS_PLAY_PAUSE = 14,
  /// Player.Stop.
  REFRAIN_MPRIS_STOP = 15,
  /// Player.Play.
  REFRAIN_MPRIS_PLAY = 16,
  /// Player.Seek; `integer` is the offset in µs.
  REFRAIN_MPRIS_SEEK = 17,
  /// Player.SetPosition; `text` is the track id, `integer` the position in µs.
  REFRAIN_MPRIS_SET_POSITION = 18,
  /// Player.OpenUri; `text` is the URI (file, http or https: others are refused on the bus).
  REFRAIN_MPRIS_OPEN_URI = 19,
  /// A write of Volume; `number` is the value asked for, unclamped.
  REFRAIN_MPRIS_SET_VOLUME = 20,
  /// A write of LoopStatus; `integer` is a refrain_mpris_loop value.
  REFRAIN_MPRIS_SET_LOOP = 21,
  /// A write of Shuffle; `integer` is 0 or 1.
  REFRAIN_MPRIS_SET_SHUFFLE = 22,
} refrain_mpris_request_kind;

/// One request, taken with refrain_mpris_take; release its text with refrain_mpris_request_clear.
typedef struct refrain_mpris_request {
  refrain_mpris_request_kind kind;
  int64_t integer;
  double number;
  /// Owned by the request; NULL when the kind has no text.
  char *text;
} refrain_mpris_request;

/// PlaybackStatus.
enum refrain_mpris_status {
  REFRAIN_MPRIS_STOPPED = 0,
  REFRAIN_MPRIS_PLAYING = 1,
  REFRAIN_MPRIS_PAUSED = 2,
};
/// LoopStatus.
enum refrain_mpris_loop {
  REFRAIN_MPRIS_LOOP_NONE = 0,
  REFRAIN_MPRIS_LOOP_TRACK = 1,
  REFRAIN_MPRIS_LOOP_PLAYLIST = 2,
};

/// The Player properties other than Metadata and Position (the flags are 0 or 1).
typedef struct refrain_mpris_player {
  int32_t playback_status;
  int32_t loop_status;
  int32_t shuffle;
  double volume;
  int32_t can_go_next;
  int32_t can_go_previous;
  int32_t can_play;
  int32_t can_pause;
  int32_t can_seek;
} refrain_mpris_player;

/// Opens the plugin once; 1 when it is there, else 0 with why in `reason` (when not NULL).
int refrain_mpris_load(char *reason, unsigned long size);

/// Starts the D-Bus thread, which owns `name`, or `fallback_name` when `name` is taken.
///
/// Returns at once; the outcome arrives as a CONNECTED or UNAVAILABLE request. NULL when
/// the plugin did not load (refrain_mpris_load says why) or the process is out of
/// descriptors or threads.
refrain_mpris *refrain_mpris_start(const char *name, const char *fallback_name);

/// Stops the server: the D-Bus thread leaves the bus and ends on its own; nothing waits for
/// it. `server` must not be used afterwards.
void refrain_mpris_stop(refrain_mpris *server);

/// Becomes readable when requests are waiting.
int refrain_mpris_wake_fd(const refrain_mpris *server);

/// Empties the wake-up pipe; call before taking the requests.
void refrain_mpris_drain_wake(refrain_mpris *server);

/// Takes the oldest request into `request`; returns 0 when none is waiting.
int refrain_mpris_take(refrain_mpris *server, refrain_mpris_request *request);

/// Frees a taken request's text.
void refrain_mpris_request_clear(refrain_mpris_request *request);

/// Replaces the Player properties; the ones that changed are signalled (PropertiesChanged).
void refrain_mpris_set_player(refrain_mpris *server, refrain_mpris_player player);

/// Sets the anchor Position is computed from: `position_us` now, advancing with the
/// monotonic clock when `advancing`, never past `limit_us` (when it is 0 or more). Never
/// signalled, as the specification asks.
void refrain_mpris_set_position(
    refrain_mpris *server, int64_t position_us, int32_t advancing, int64_t limit_us);

/// Emits Player.Seeked with the new position.
void refrain_mpris_emit_seeked(refrain_mpris *server, int64_t position_us);

/// Shows a desktop notification (org.freedesktop.Notifications) that replaces the last one:
/// `icon` is an image file's path, or empty. Returns at once; no answer is waited for.
void refrain_mpris_notify(refrain_mpris *server, const char *summary, const char *body,
                          const char *icon);
/// Starts building a new Metadata value (the player's thread only).
void refrain_mpris_metadata_begin(refrain_mpris *server);
/// Adds an object path (left out unless it is a valid path).
void refrain_mpris_metadata_add_path(refrain_mpris *server, const char *key, const char *path);
/// Adds a string.
void refrain_mpris_metadata_add_string(refrain_mpris *server, const char *key, const char *value);
/// Adds a list of strings, given as one string with the items separated by U+001F.
void refrain_mpris_metadata_add_strings(refrain_mpris *server, const char *key, const char *joined);
/// Adds a 64-bit integer.
void refrain_mpris_metadata_add_int64(refrain_mpris *server, const char *key, int64_t value);
/// Replaces Metadata with what was built, and signals it.
void refrain_mpris_metadata_commit(refrain_mpris *server);


/// The version of refrain_mpris_api; a plugin of another version is not used.
#define REFRAIN_MPRIS_API_VERSION 1

/// The plugin's calls, one per function above (the plugin's only exported symbol,
/// refrain_mpris_plugin_api, returns it).
typedef struct refrain_mpris_api {
  int version;
  refrain_mpris *(*start)(const char *name, const char *fallback_name);
  void (*stop)(refrain_mpris *server);
  int (*wake_fd)(const refrain_mpris *server);
  void (*drain_wake)(refrain_mpris *server);
  int (*take)(refrain_mpris *server, refrain_mpris_request *request);
  void (*request_clear)(refrain_mpris_request *request);
  void (*set_player)(refrain_mpris *server, refrain_mpris_player player);
  void (*set_position)(refrain_mpris *server, int64_t position_us, int32_t advancing,
                       int64_t limit_us);
  void (*emit_seeked)(refrain_mpris *server, int64_t position_us);
  void (*notify)(refrain_mpris *server, const char *summary, const char *body,
                 const char *icon);
  void (*metadata_begin)(refrain_mpris *server);
  void (*metadata_add_path)(refrain_mpris *server, const char *key, const char *path);
  void (*metadata_add_string)(refrain_mpris *server, const char *key, const char *value);
  void (*metadata_add_strings)(refrain_mpris *server, const char *key, const char *joined);
  void (*metadata_add_int64)(refrain_mpris *server, const char *key, int64_t value);
  void (*metadata_commit)(refrain_mpris *server);
} refrain_mpris_api;

/// The name of the plugin's table function, for dlsym.
#define REFRAIN_MPRIS_PLUGIN_SYMBOL "refrain_mpris_plugin_api"
/// The plugin's file name.
#define REFRAIN_MPRIS_PLUGIN_FILE "librefrain-mpris.so"

#endif
