// The ArtifactStore role: what is kept of a result when, and only when, the caller asked with store_artifact: true.

export interface ArtifactContent {
  /** The normalized HTML (null for JSON sources). */
  html: string | null;
  /** The extracted `data` as returned to the caller. */
  data: unknown;
}

export interface ArtifactMeta {
  id: string;
  accountId: string;
  requestId: string;
  url: string;
  createdAt: string;
  expiresAt: string;
}

export interface ArtifactStore {
  save(meta: ArtifactMeta, content: ArtifactContent): Promise<void>;
  /** Only the owning account sees an artifact; anyone else gets null, exactly as for a missing one. */
  get(id: string, accountId: string): Promise<{ meta: ArtifactMeta; content: ArtifactContent } | null>;
  delete(id: string, accountId: string): Promise<boolean>;
  /** Removes artifacts past their retention; returns how many. */
  sweepExpired(now: Date): Promise<number>;
  /** Throws unless an artifact could be written now (the readiness probe). */
  checkWritable(): Promise<void>;
}
