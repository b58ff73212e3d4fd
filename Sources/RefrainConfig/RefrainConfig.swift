/// Refrain's configuration file and logging (filled in by the configuration work).
public enum RefrainConfig {}
