/** Loads a script once per URL (the Adsgram SDK, the demo widget scripts); rejects when it fails to load. */
const loading = new Map<string, Promise<void>>();

/** `id` names the script element (a library may look for its own script by id). */
export const loadScript = (src: string, id?: string): Promise<void> => {
  let p = loading.get(src);
  if (p === undefined) {
    p = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      if (id !== undefined) script.id = id;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`${src} failed to load`));
      document.head.appendChild(script);
    });
    // A failed load may be retried later.
    p.catch(() => loading.delete(src));
    loading.set(src, p);
  }
  return p;
};
