import { type Kafka, Partitioners, type Producer } from "kafkajs";

export interface Publisher {
  /** Sends one message and resolves once the broker acknowledged it (acks = all). */
  publish(topic: string, key: string, value: Buffer, headers: Record<string, string>): Promise<void>;
  disconnect(): Promise<void>;
}

/**
 * A kafkajs producer. Its retries may duplicate a message; consumers deduplicate by `ce_id`, so
 * delivery is at least once end to end.
 */
export async function createPublisher(kafka: Kafka): Promise<Publisher> {
  const producer: Producer = kafka.producer({
    allowAutoTopicCreation: true,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  return {
    async publish(topic, key, value, headers) {
      await producer.send({ topic, acks: -1, messages: [{ key, value, headers }] });
    },
    disconnect: () => producer.disconnect(),
  };
}
