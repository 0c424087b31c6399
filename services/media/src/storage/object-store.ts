import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { appError } from "@crafter/kit";

export interface ObjectStoreOptions {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  forcePathStyle: boolean;
}

export interface StoredObject {
  body: AsyncIterable<Uint8Array>;
  size: number | undefined;
  mime: string | undefined;
}

export interface UploadedPart {
  partNumber: number;
  size: number;
  etag: string;
}

/**
 * The bucket of media files, through the AWS SDK v3 (any S3-compatible server). Keys are built by
 * the use cases; nothing here knows about users or assets.
 */
export class ObjectStore {
  private readonly client: S3Client;
  readonly bucket: string;

  constructor(options: ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums in trailers are not understood by every S3-compatible server.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  /** Creates the bucket when it does not exist (at start). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket })).catch((error: { name?: string }) => {
        if (error.name !== "BucketAlreadyOwnedByYou" && error.name !== "BucketAlreadyExists") throw error;
      });
    }
  }

  async put(key: string, body: Buffer, mime: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: mime,
        ContentLength: body.length,
      }),
    );
  }

  /** @throws NOT_FOUND when there is no such object. */
  async get(key: string, signal?: AbortSignal): Promise<StoredObject> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
        abortSignal: signal,
      });
      return { body: out.Body as Readable, size: out.ContentLength, mime: out.ContentType };
    } catch (error) {
      if ((error as { name?: string }).name === "NoSuchKey") throw appError("NOT_FOUND", "No such file.");
      throw error;
    }
  }

  async getBytes(key: string, signal?: AbortSignal): Promise<Buffer> {
    const object = await this.get(key, signal);
    const chunks: Uint8Array[] = [];
    for await (const chunk of object.body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async delete(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.client.send(
      new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
  }

  /** Starts a multipart upload of `key`; returns its upload id. */
  async startMultipart(key: string, mime: string): Promise<string> {
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: mime }),
    );
    if (!out.UploadId) throw new Error("the object store returned no upload id");
    return out.UploadId;
  }

  /** Stores part `partNumber` (1-based); a part sent again replaces the earlier one. */
  async putPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<void> {
    await this.client.send(
      new UploadPartCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
        Body: body,
        ContentLength: body.length,
      }),
    );
  }

  /** The parts stored so far, in part order (the object store is the record of what arrived). */
  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    do {
      const out = await this.client.send(
        new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
      );
      for (const part of out.Parts ?? []) {
        if (part.PartNumber && part.ETag)
          parts.push({ partNumber: part.PartNumber, size: part.Size ?? 0, etag: part.ETag });
      }
      marker = out.IsTruncated ? out.NextPartNumberMarker : undefined;
    } while (marker);
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
  }
}
