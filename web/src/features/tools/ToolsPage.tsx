import { Flex, Typography } from "antd";
import { ToolsGrid } from "./ToolsGrid";

/** /app/tools: quick standalone crafts that need no project. */
export default function ToolsPage() {
  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Tools
        </Typography.Title>
        <Typography.Text type="secondary">Quick crafts that stand on their own.</Typography.Text>
      </div>
      <ToolsGrid />
    </Flex>
  );
}
