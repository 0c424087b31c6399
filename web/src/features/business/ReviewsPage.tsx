import { PlusOutlined, RobotOutlined, UploadOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Flex, Form, Input, Modal, Pagination, Popconfirm, Rate, Tag, Typography } from "antd";
import { useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useSearchParams } from "react-router-dom";
import { z } from "zod";
import { api } from "../../api/api";
import { isApiError } from "../../api/errors";
import { useFeature, useInitial } from "../../api/hooks/app";
import { type Review, useReviews, useReviewWrites } from "../../api/hooks/profiles";
import { paths } from "../../api/paths";
import { FormField } from "../../shared/FormField";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { AreaShell } from "../projects/components/AreaShell";
import { BUSINESS_SECTIONS } from "./BusinessPages";
import { GoogleBusinessPanel } from "./GoogleBusinessPanel";
import { offlineReplyDraft, replyPrompt } from "./review-reply";

const PAGE_SIZE = 10;

const reviewSchema = z.object({
  author: z.string().trim().min(1, "Author is required").max(120, "Author must be at most 120 characters"),
  rating: z.number().int().min(1, "Choose 1 to 5 stars").max(5),
  text: z.string().max(5000, "Text must be at most 5000 characters"),
  reviewedOn: z.string(),
});
type ReviewValues = z.infer<typeof reviewSchema>;

function AddReviewModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { create } = useReviewWrites();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ReviewValues>({
    resolver: zodResolver(reviewSchema),
    defaultValues: { author: "", rating: 5, text: "", reviewedOn: "" },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await create(values);
      notify.success("Review added");
      reset();
      onClose();
    } catch (error) {
      if (isApiError(error))
        for (const [key, message] of Object.entries(error.fields)) setError(key as keyof ReviewValues, { message });
      notify.error(error, "Could not add the review");
    }
  });
  return (
    <Modal open={open} onCancel={onClose} title="Add a review" footer={null} destroyOnHidden>
      <Form layout="vertical" component="div">
        <form onSubmit={submit} noValidate data-testid="review-form">
          <FormField id="review-author" label="Author" required error={errors.author}>
            <Controller
              control={control}
              name="author"
              render={({ field }) => <Input id="review-author" {...field} data-testid="review-author" />}
            />
          </FormField>
          <FormField id="review-rating" label="Rating" required error={errors.rating}>
            <Controller
              control={control}
              name="rating"
              render={({ field }) => (
                <Rate id="review-rating" value={field.value} onChange={field.onChange} data-testid="review-rating" />
              )}
            />
          </FormField>
          <FormField id="review-text" label="Review" error={errors.text}>
            <Controller
              control={control}
              name="text"
              render={({ field }) => (
                <Input.TextArea id="review-text" {...field} autoSize={{ minRows: 3 }} data-testid="review-text" />
              )}
            />
          </FormField>
          <FormField id="review-date" label="Date" error={errors.reviewedOn}>
            <Controller
              control={control}
              name="reviewedOn"
              render={({ field }) => <Input id="review-date" type="date" {...field} data-testid="review-date" />}
            />
          </FormField>
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="review-submit">
              Add review
            </Button>
          </Flex>
        </form>
      </Form>
    </Modal>
  );
}

/** One review with its reply: drafted by the assistant (or offline), edited, saved. */
function ReviewCard({ review, business }: { review: Review; business: string }) {
  const { reply, remove } = useReviewWrites();
  const [draft, setDraft] = useState(review.reply);
  const [editing, setEditing] = useState(!review.reply);
  const [drafting, setDrafting] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const draftReply = async () => {
    setDrafting(true);
    setNote(null);
    try {
      const answer = await api.post<{ message: { content: string }; engine: string; note?: string }>(
        paths.assistantChat,
        { messages: [{ type: "message", content: replyPrompt(review, business) }] },
      );
      if (answer.engine === "offline") {
        setDraft(offlineReplyDraft(review, business));
        setNote("Drafted offline from the review itself: no AI provider is set up. Read it and make it yours.");
      } else {
        setDraft(answer.message.content.trim());
        setNote("Drafted by AI. Check it before you save.");
      }
    } catch (error) {
      notify.error(error, "Could not draft a reply");
    } finally {
      setDrafting(false);
    }
  };

  const fromGoogle = review.source === "google";
  const save = async () => {
    setSaving(true);
    try {
      await reply(review.reviewId, draft);
      setEditing(false);
      setNote(null);
      notify.success(fromGoogle ? "Reply posted on Google" : "Reply saved");
    } catch (error) {
      notify.error(error, fromGoogle ? "Could not post the reply on Google" : "Could not save the reply");
    } finally {
      setSaving(false);
    }
  };

  const removeReply = async () => {
    try {
      await reply(review.reviewId, "");
      setDraft("");
      setEditing(true);
      notify.success(fromGoogle ? "Reply deleted from Google" : "Reply deleted");
    } catch (error) {
      notify.error(error, "Could not delete the reply");
    }
  };

  return (
    <Card
      size="small"
      data-testid="review-card"
      data-review-id={review.reviewId}
      title={
        <Flex gap={8} align="center" wrap>
          <span>{review.author}</span>
          <Rate disabled value={review.rating} style={{ fontSize: 14 }} aria-label={`${review.rating} stars`} />
        </Flex>
      }
      extra={
        <Flex gap={8} align="center">
          {(review.reviewedAt || review.reviewedOn) && (
            <Typography.Text type="secondary" data-testid="review-time">
              {fromGoogle && review.reviewedAt ? formatDateTime(review.reviewedAt) : review.reviewedOn}
            </Typography.Text>
          )}
          <Tag color={fromGoogle ? "blue" : undefined}>
            {fromGoogle ? "Google" : review.source === "csv" ? "Imported" : "Added by hand"}
          </Tag>
          {!fromGoogle && (
            <Popconfirm
              title="Delete this review?"
              okText="Delete"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove(review.reviewId).catch((error) => notify.error(error, "Could not delete"))}
            >
              <Button size="small" type="text" danger aria-label={`Delete the review by ${review.author}`}>
                Delete
              </Button>
            </Popconfirm>
          )}
        </Flex>
      }
    >
      <Typography.Paragraph data-testid="review-body">{review.text || <em>No text</em>}</Typography.Paragraph>
      {editing ? (
        <Flex vertical gap={8}>
          <Input.TextArea
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            autoSize={{ minRows: 2, maxRows: 8 }}
            maxLength={4000}
            placeholder="Your public reply"
            aria-label={`Reply to ${review.author}`}
            data-testid="reply-text"
          />
          {note && <Alert type="info" showIcon message={note} data-testid="reply-note" />}
          <Flex gap={8} wrap>
            <Button icon={<RobotOutlined />} onClick={draftReply} loading={drafting} data-testid="reply-draft">
              Draft a reply with AI
            </Button>
            <Button type="primary" onClick={save} loading={saving} disabled={!draft.trim()} data-testid="reply-save">
              {fromGoogle ? "Post reply on Google" : "Save reply"}
            </Button>
            {review.reply && (
              <Button
                onClick={() => {
                  setDraft(review.reply);
                  setEditing(false);
                  setNote(null);
                }}
              >
                Cancel
              </Button>
            )}
          </Flex>
        </Flex>
      ) : (
        <Card
          size="small"
          type="inner"
          title={fromGoogle ? "Your reply on Google" : "Your reply"}
          extra={
            <Flex gap={4}>
              <Button size="small" onClick={() => setEditing(true)} data-testid="reply-edit">
                Edit
              </Button>
              <Popconfirm
                title={fromGoogle ? "Delete this reply from Google?" : "Delete this reply?"}
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={removeReply}
              >
                <Button size="small" danger data-testid="reply-delete">
                  Delete
                </Button>
              </Popconfirm>
            </Flex>
          }
        >
          <Typography.Paragraph style={{ margin: 0 }} data-testid="reply-saved">
            {review.reply}
          </Typography.Paragraph>
        </Card>
      )}
    </Card>
  );
}

/** /app/business/reviews: reviews entered by hand or imported from CSV, each with its reply. */
export function ReviewsPage() {
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const { data, error, isLoading, mutate } = useReviews(page, PAGE_SIZE);
  const { importCsv } = useReviewWrites();
  const { data: initial } = useInitial();
  const business = initial?.activeProjectInfo?.projectTitle ?? "";
  const businessIntegration = useFeature("google_business_integration");
  const reviewsFlag = useFeature("google_reviews");
  const googleReviews = businessIntegration && reviewsFlag;
  const [params, setParams] = useSearchParams();
  const returned = params.get("connected") === "google_business" ? "connected" : params.get("error");

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setImporting(true);
    try {
      const outcome = await importCsv(await file.text());
      const problems = outcome.errors.map((row) => `line ${row.line}: ${row.reason}`).join("; ");
      notify.success(
        `${outcome.created} reviews imported${outcome.skipped ? `, ${outcome.skipped} already there` : ""}`,
        problems ? `Skipped ${problems}` : undefined,
      );
    } catch (failure) {
      notify.error(failure, "Could not import the file");
    } finally {
      setImporting(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const actions = (
    <Flex gap={8} wrap>
      <Button icon={<PlusOutlined />} type="primary" onClick={() => setAdding(true)} data-testid="review-add">
        Add review
      </Button>
      <Button
        icon={<UploadOutlined />}
        loading={importing}
        onClick={() => fileInput.current?.click()}
        data-testid="review-import"
      >
        Import CSV
      </Button>
      <input
        ref={fileInput}
        type="file"
        accept=".csv,text/csv"
        hidden
        data-testid="review-import-file"
        onChange={(event) => void onFile(event.target.files?.[0])}
      />
    </Flex>
  );

  const reviews = data?.result ?? [];
  return (
    <AreaShell
      title="Reviews"
      subtitle={
        googleReviews
          ? "Your Google Business Profile reviews, kept in sync, with your replies. You can also add reviews by hand or import a CSV."
          : "Reviews from your business listing. Add them by hand or import a CSV (author, rating, text, date)."
      }
      sections={BUSINESS_SECTIONS}
      help="business-reviews"
      extra={actions}
    >
      {googleReviews && returned && (
        <Alert
          closable
          onClose={() => setParams({}, { replace: true })}
          type={returned === "connected" ? "success" : "error"}
          showIcon
          message={
            returned === "connected"
              ? "Google Business Profile is connected. Choose the location that is this business."
              : `Google Business Profile was not connected (${returned}).`
          }
          style={{ marginBottom: 12 }}
          data-testid="gbp-return"
        />
      )}
      {googleReviews && (
        <div style={{ marginBottom: 12 }}>
          <GoogleBusinessPanel onChosen={() => setParams({}, { replace: true })} />
        </div>
      )}
      {error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading ? (
        <LoadingBlock rows={4} />
      ) : reviews.length === 0 ? (
        <EmptyState description="No reviews yet." testId="reviews-empty" />
      ) : (
        <Flex vertical gap={12} data-testid="review-list">
          {reviews.map((review) => (
            <ReviewCard key={`${review.reviewId}:${review.reply}`} review={review} business={business} />
          ))}
          {(data?.meta.totalPages ?? 1) > 1 && (
            <Pagination
              current={page}
              pageSize={PAGE_SIZE}
              total={data?.meta.count ?? 0}
              onChange={setPage}
              showSizeChanger={false}
            />
          )}
        </Flex>
      )}
      <AddReviewModal open={adding} onClose={() => setAdding(false)} />
    </AreaShell>
  );
}
