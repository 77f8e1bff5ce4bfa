package io.stator.server.access;

/**
 * Who makes a request, as IAM names it: an IAM user of this server's account. Stator's
 * identities are the access keys of the credentials file; each is the user the --policies file
 * names for it ("UserName"), else a user named as its access key id, whose ARN is
 * {@code arn:aws:iam::ACCOUNT:user/NAME}. AWS's long-term access keys belong to IAM users, and
 * its messages name such a caller "User: arn:aws:iam::123456789012:user/Name".
 *
 * @param userId the value of {@code aws:userid}: AWS gives an IAM user's unique id ("AIDA...");
 *               Stator, which has no such ids, gives the access key id
 */
public record Principal(String arn, String accountId, String userName, String userId) {

    public static Principal user(String accountId, String userName, String accessKeyId) {
        return new Principal("arn:aws:iam::" + accountId + ":user/" + userName, accountId, userName, accessKeyId);
    }

    /** The account's own principal ARN, which a resource-based policy may name. */
    public String accountRootArn() {
        return "arn:aws:iam::" + accountId + ":root";
    }
}
