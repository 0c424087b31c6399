import { ArrowLeftOutlined } from "@ant-design/icons";
import { Flex, Typography } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";

/** The frame of a settings sub-page: a way back to Settings and the page's title. */
export function SettingsPageFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Flex vertical gap={16} className="crafter-page crafter-page--narrow">
      <Link to="/app/settings" className="crafter-back-link">
        <ArrowLeftOutlined aria-hidden /> Settings
      </Link>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </Flex>
  );
}
