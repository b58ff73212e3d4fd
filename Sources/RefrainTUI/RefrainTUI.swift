/// The full-screen ncurses player (filled in by the terminal UI work).
public enum RefrainTUI {}
