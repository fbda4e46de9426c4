/** What a save came to, next to its control: the server's refusal (announced), or a short "Saved". */
export function Status({ error, done, id }: { error: string | null; done?: string | null; id?: string }) {
  if (error)
    return (
      <p className="org-error" role="alert" id={id}>
        {error}
      </p>
    );
  if (done)
    return (
      <p className="org-done" role="status" id={id}>
        {done}
      </p>
    );
  return null;
}
