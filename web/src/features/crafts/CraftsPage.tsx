import { EditOutlined } from "@ant-design/icons";
import { Card, Flex, Typography } from "antd";
import { LinkButton } from "../../shared/LinkButton";
import { newCraftHref } from "./links";
import { PagedCraftList } from "./PagedCraftList";

/** /app/crafts ("Contents"): the user's crafts, newest first, one page at a time (?page=). */
export default function CraftsPage() {
  return (
    <Flex vertical gap={24}>
      <Flex justify="space-between" align="center" wrap gap={16}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Contents
          </Typography.Title>
          <Typography.Text type="secondary">Everything you have crafted</Typography.Text>
        </div>
        <LinkButton to={newCraftHref()} type="primary" icon={<EditOutlined />} data-testid="crafts-new-blog-post">
          Craft a blog post
        </LinkButton>
      </Flex>
      <Card>
        <PagedCraftList
          testId="crafts-list"
          empty="No crafts yet. Your blog posts and other content will appear here."
          emptyAction={
            <LinkButton to={newCraftHref()} type="primary" data-testid="crafts-empty-cta">
              Craft a blog post
            </LinkButton>
          }
        />
      </Card>
    </Flex>
  );
}
