/// Catalog providers and the user's library store (filled in by the catalog work).
public enum RefrainCatalog {}
