"""What a listener would hear, measured with numpy.

Refrain's end-to-end tests record the PulseAudio null sink's monitor while
Refrain plays, then ask these functions what was heard: which pitch, how loud,
from when to when. Times are in seconds from the start of the recording.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

# Below this level a window counts as silence. The fixtures play at -6 dBFS
# peak (-9 dBFS RMS), -15 dBFS RMS at volume 50; a silent null sink gives
# digital zeros.
SILENCE_DBFS = -45.0


@dataclass
class Audio:
    """Mono float samples in [-1, 1) and their rate."""

    samples: np.ndarray
    rate: int

    @property
    def duration(self) -> float:
        return len(self.samples) / self.rate

    def window(self, start: float, length: float) -> np.ndarray:
        a = max(0, int(round(start * self.rate)))
        b = max(a, int(round((start + length) * self.rate)))
        return self.samples[a:b]


def read_wav(path: str) -> Audio:
    """Reads a 16-bit PCM WAV and mixes it to mono.

    parec may be stopped before it rewrites the header's lengths, so the data
    chunk's size is not trusted: everything after its header is audio.
    """
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path}: not a WAV file")
    pos, channels, rate, bits = 12, None, None, None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = pos + 8
        if cid == b"fmt ":
            fmt, channels, rate = struct.unpack("<HHI", data[body:body + 8])
            bits = struct.unpack("<H", data[body + 14:body + 16])[0]
            if fmt not in (1, 0xFFFE) or bits != 16:
                raise ValueError(f"{path}: only 16-bit PCM is supported (format {fmt}, {bits} bits)")
        elif cid == b"data":
            if channels is None:
                raise ValueError(f"{path}: data before fmt")
            end = body + size
            if size == 0 or size >= 0xFFFFFFF0 or end > len(data):
                end = len(data)
            raw = data[body:end]
            raw = raw[: len(raw) - len(raw) % (2 * channels)]
            pcm = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
            pcm = pcm.reshape(-1, channels).mean(axis=1)
            return Audio(pcm, rate)
        pos = body + size + (size & 1)
    raise ValueError(f"{path}: no data chunk")


def rms_dbfs(x: np.ndarray) -> float:
    """RMS level in dBFS (a full-scale square wave is 0 dBFS; a full-scale sine -3.01)."""
    if len(x) == 0:
        return -np.inf
    r = float(np.sqrt(np.mean(np.square(x))))
    return 20 * np.log10(r) if r > 0 else -np.inf


def dominant_frequency(x: np.ndarray, rate: int) -> float:
    """The strongest frequency in a window, in Hz, refined between FFT bins.

    The window is zero-padded to at least 1 s of samples, and the peak is
    refined with a parabola through the log magnitudes (Hann window), which
    puts a 50 ms window within a few Hz of the true pitch.
    """
    if len(x) < 16:
        return 0.0
    w = x * np.hanning(len(x))
    n = 1 << int(np.ceil(np.log2(max(len(x), rate))))
    mag = np.abs(np.fft.rfft(w, n))
    mag[0] = 0.0
    k = int(np.argmax(mag))
    if 0 < k < len(mag) - 1 and mag[k] > 0:
        a, b, c = np.log(mag[k - 1:k + 2] + 1e-300)
        denom = a - 2 * b + c
        if denom != 0:
            k = k + 0.5 * (a - c) / denom
    return k * rate / n


def sound_start(audio: Audio, after: float = 0.0, threshold_dbfs: float = SILENCE_DBFS,
                window: float = 0.005) -> float | None:
    """The start of the first short window at or after `after` that is louder than the threshold."""
    levels, win = _levels(audio, window)
    first = max(0, int(np.floor(after / win)))
    idx = np.nonzero(levels[first:] > threshold_dbfs)[0]
    return None if len(idx) == 0 else (first + int(idx[0])) * win


def sound_end(audio: Audio, after: float = 0.0, threshold_dbfs: float = SILENCE_DBFS,
              window: float = 0.005) -> float | None:
    """The end of the last window louder than the threshold (after `after`)."""
    levels, win = _levels(audio, window)
    first = max(0, int(np.floor(after / win)))
    idx = np.nonzero(levels[first:] > threshold_dbfs)[0]
    return None if len(idx) == 0 else (first + int(idx[-1]) + 1) * win


def silence_start(audio: Audio, after: float, threshold_dbfs: float = SILENCE_DBFS,
                  window: float = 0.005, min_length: float = 0.1) -> float | None:
    """The start of the first stretch of at least `min_length` of silence at or after `after`."""
    levels, win = _levels(audio, window)
    need = max(1, int(round(min_length / win)))
    run = 0
    for i in range(max(0, int(np.floor(after / win))), len(levels)):
        run = run + 1 if levels[i] <= threshold_dbfs else 0
        if run == need:
            return (i - need + 1) * win
    return None


def sounding_time(audio: Audio, threshold_dbfs: float = SILENCE_DBFS, window: float = 0.005) -> float:
    """Total time, in seconds, of windows louder than the threshold."""
    levels, win = _levels(audio, window)
    return float(np.count_nonzero(levels > threshold_dbfs)) * win


def dropouts(audio: Audio, start: float, end: float, min_length: float = 0.001) -> list[tuple[float, float]]:
    """Stretches of digital silence of at least `min_length` within [start, end]: (time, length) in seconds.

    A null sink plays digital zeros when no audio reaches it in time, and the fixtures'
    tones (steps.mp3, tone440.mp3) never fall silent, so inside a tone each stretch is a
    dropout the listener hears: an underrun of the PulseAudio stream, or a gap between old
    and new audio. A sine's zero crossing is one or two samples, far below 1 ms."""
    rate = audio.rate
    i0, i1 = max(0, int(start * rate)), min(len(audio.samples), int(end * rate))
    if i1 <= i0:
        return []
    quiet = (np.abs(audio.samples[i0:i1]) < 1e-4).astype(np.int8)
    edges = np.diff(np.concatenate([[0], quiet, [0]]))
    starts, ends = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
    need = int(round(min_length * rate))
    return [((i0 + a) / rate, (b - a) / rate) for a, b in zip(starts, ends) if b - a >= need]


@dataclass
class Slice:
    t: float         # window start, seconds from the start of the recording
    freq: float      # dominant frequency, Hz (0 when silent)
    dbfs: float      # RMS level


def frequency_timeline(audio: Audio, window: float = 0.05, start: float = 0.0,
                       end: float | None = None) -> list[Slice]:
    """Dominant frequency and level in consecutive windows (50 ms by default)."""
    end = audio.duration if end is None else min(end, audio.duration)
    out = []
    t = start
    while t + window <= end + 1e-9:
        x = audio.window(t, window)
        level = rms_dbfs(x)
        freq = dominant_frequency(x, audio.rate) if level > SILENCE_DBFS else 0.0
        out.append(Slice(round(t, 6), freq, level))
        t += window
    return out


@dataclass
class Segment:
    start: float
    end: float
    freq: float      # median of the windows' frequencies (0 for silence)

    @property
    def length(self) -> float:
        return self.end - self.start


def segments(timeline: list[Slice], tolerance_hz: float = 12.0) -> list[Segment]:
    """Merges a timeline into runs of one steady pitch (or silence).

    A single window that straddles a change shows an in-between pitch; such a
    one-window run is folded into the run before it.
    """
    segs: list[Segment] = []
    for s in timeline:
        end = s.t + (timeline[1].t - timeline[0].t if len(timeline) > 1 else 0.05)
        if segs and _same(segs[-1].freq, s.freq, tolerance_hz):
            segs[-1].end = end
            continue
        if len(segs) >= 2 and segs[-1].length < (end - s.t) * 1.5:
            blip = segs.pop()
            segs[-1].end = blip.end
            if _same(segs[-1].freq, s.freq, tolerance_hz):
                segs[-1].end = end
                continue
        segs.append(Segment(s.t, end, s.freq))
    return segs


def first_tone(audio: Audio, after: float = 0.0, length: float = 0.2, skip: float = 0.03) -> tuple[float, float] | None:
    """(onset, pitch) of the first sound after `after`; the pitch is measured
    `skip` seconds in, over `length` seconds, away from the onset's transient."""
    onset = sound_start(audio, after)
    if onset is None:
        return None
    return onset, dominant_frequency(audio.window(onset + skip, length), audio.rate)


def pitch_change(audio: Audio, after: float, from_hz: float, tolerance_hz: float = 12.0,
                 window: float = 0.02, until: float | None = None) -> tuple[float, float] | None:
    """(time, new pitch) of the first window after `after` that sounds a pitch
    other than `from_hz` (or falls silent: pitch 0). Short 20 ms windows give
    the change time to within ~20 ms; the new pitch is measured over 100 ms
    starting 30 ms after the change."""
    tl = frequency_timeline(audio, window, after, until)
    for s in tl:
        if not _same(s.freq, from_hz, tolerance_hz * 2):
            # Confirm on the next 100 ms that this is a steady new state, not a blip.
            nxt = audio.window(s.t + window + 0.03, 0.1)
            level = rms_dbfs(nxt)
            new = dominant_frequency(nxt, audio.rate) if level > SILENCE_DBFS else 0.0
            if not _same(new, from_hz, tolerance_hz):
                return s.t, new
    return None


def _same(a: float, b: float, tol: float) -> bool:
    if a == 0.0 or b == 0.0:
        return a == b
    return abs(a - b) <= tol


def _levels(audio: Audio, window: float) -> tuple[np.ndarray, float]:
    """RMS level of consecutive windows, and the true window length in seconds."""
    n = max(1, int(round(window * audio.rate)))
    k = len(audio.samples) // n
    if k == 0:
        return np.array([-np.inf]), n / audio.rate
    blocks = audio.samples[: k * n].reshape(k, n)
    with np.errstate(divide="ignore"):
        return 20 * np.log10(np.sqrt(np.mean(np.square(blocks), axis=1))), n / audio.rate


# ---------------------------------------------------------------- steps.mp3

@dataclass
class Change:
    t: float          # when the new state began, seconds into the recording
    step: int | None  # index into the step frequencies; None for silence


def step_changes(audio: Audio, freqs: list[float], start: float = 0.0, end: float | None = None,
                 hop: float = 0.005, window: float = 0.03, stable: int = 4,
                 tolerance_hz: float = 15.0) -> list[Change]:
    """Which second of steps.mp3 is being heard, as a list of changes.

    Every `hop` a `window`-long slice is classified as silence or as the step
    whose frequency is nearest (within `tolerance_hz`). A new state counts once
    it holds for `stable` hops; its time is the centre of the first slice
    that showed it, which puts a change within about 10 ms of where it is.
    A tone at none of the frequencies counts as "unknown" and starts no change.
    """
    end = audio.duration if end is None else min(end, audio.duration)
    freqs_arr = np.asarray(freqs, dtype=float)
    states: list[tuple[float, object]] = []
    t = start
    while t + window <= end + 1e-9:
        x = audio.window(t, window)
        if rms_dbfs(x) <= SILENCE_DBFS:
            st: object = None
        else:
            f = dominant_frequency(x, audio.rate)
            k = int(np.argmin(np.abs(freqs_arr - f)))
            st = k if abs(freqs_arr[k] - f) <= tolerance_hz else "?"
        states.append((t + window / 2, st))
        t += hop
    changes: list[Change] = []
    current: object = "init"
    i = 0
    while i < len(states):
        st = states[i][1]
        if st != current and st != "?":
            run = 1
            while i + run < len(states) and states[i + run][1] == st and run < stable:
                run += 1
            if run >= stable or i + run == len(states):
                changes.append(Change(states[i][0], st))  # type: ignore[arg-type]
                current = st
                i += run
                continue
        i += 1
    return changes


def heard_position(changes: list[Change], rec_t: float) -> float | None:
    """The position in steps.mp3 (seconds) being heard at `rec_t`, from the
    last tone change before it, or None during silence or before any sound."""
    last = None
    for c in changes:
        if c.t <= rec_t:
            last = c
        else:
            break
    if last is None or last.step is None:
        return None
    return last.step + (rec_t - last.t)
