import { Card, Flex, Typography } from "antd";
import { LinkButton } from "../../shared/LinkButton";
import { PagedCraftList } from "../crafts/PagedCraftList";

/** /app/favorites: the crafts starred with the favorite button (`?favorites=true`). */
export default function FavoritesPage() {
  return (
    <Flex vertical gap={24}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Favorites
        </Typography.Title>
        <Typography.Text type="secondary">The crafts you starred.</Typography.Text>
      </div>
      <Card>
        <PagedCraftList
          testId="favorites-list"
          filter={{ favorites: true }}
          empty="No favorites yet. Star a craft to find it here."
          emptyAction={
            <LinkButton to="/app/crafts" type="primary">
              See your crafts
            </LinkButton>
          }
        />
      </Card>
    </Flex>
  );
}
