import { useCallback, useRef, useState } from "react";
import { useSWRConfig } from "swr";
import { errorMessage } from "../../api/errors";
import { type Asset, isAssetListKey, kindOfFile, MAX_BYTES, uploadAsset, uploadVideo } from "../../api/media";

/** One file on its way up: the spec's upload progress, and the current uploading video's id. */
export interface UploadItem {
  uid: string;
  name: string;
  percent: number;
  status: "uploading" | "done" | "error";
  message?: string;
  /** The server's upload id of a chunked video upload. */
  uploadId?: string;
  asset?: Asset;
}

const MB = 1024 * 1024;

/** Why a file cannot be sent, before sending it; null when it can. */
export function refuseFile(file: Pick<File, "type" | "size">, videoAllowed: boolean): string | null {
  const kind = kindOfFile(file);
  if (!kind) return "Only images, audio and video files can be uploaded.";
  if (kind === "video" && !videoAllowed) return "Video uploads are not enabled for your account.";
  if (file.size > MAX_BYTES[kind]) return `This ${kind} is larger than ${MAX_BYTES[kind] / MB} MB.`;
  return null;
}

/**
 * Uploads files one request each (images, audio) or in resumable chunks (video), keeping each
 * file's progress; the asset lists are revalidated after each success.
 */
export function useUploads(videoAllowed: boolean) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const { mutate } = useSWRConfig();
  const controllers = useRef(new Map<string, AbortController>());

  const patch = useCallback((uid: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.uid === uid ? { ...item, ...change } : item)));
  }, []);

  const upload = useCallback(
    async (file: File, uid: string): Promise<Asset | null> => {
      const refused = refuseFile(file, videoAllowed);
      setItems((current) => [
        ...current.filter((item) => item.uid !== uid),
        refused
          ? { uid, name: file.name, percent: 0, status: "error", message: refused }
          : { uid, name: file.name, percent: 0, status: "uploading" },
      ]);
      if (refused) return null;
      const controller = new AbortController();
      controllers.current.set(uid, controller);
      const onProgress = ({ loaded, total }: { loaded: number; total: number }) =>
        patch(uid, { percent: total > 0 ? Math.min(99, Math.floor((loaded / total) * 100)) : 0 });
      try {
        const asset =
          kindOfFile(file) === "video"
            ? await uploadVideo(file, onProgress, controller.signal, (uploadId) => patch(uid, { uploadId }))
            : await uploadAsset(file, onProgress, controller.signal);
        patch(uid, { percent: 100, status: "done", asset, message: undefined });
        void mutate(isAssetListKey);
        return asset;
      } catch (error) {
        patch(uid, { status: "error", message: errorMessage(error) });
        return null;
      } finally {
        controllers.current.delete(uid);
      }
    },
    [mutate, patch, videoAllowed],
  );

  const cancel = useCallback((uid: string) => controllers.current.get(uid)?.abort(), []);
  const dismiss = useCallback((uid: string) => setItems((current) => current.filter((item) => item.uid !== uid)), []);

  return { items, upload, cancel, dismiss };
}
