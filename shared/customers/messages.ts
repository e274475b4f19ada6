/** The messages of customers and their addresses, and the rules of their metadata. */
import { defineMessages } from '../core/messages.ts';

export const customerMessages = /* @__PURE__ */ defineMessages({
  customer_created: {
    en: { title: 'Customer created', content: 'The customer was created.' },
    es: { title: 'Cliente creado', content: 'El cliente fue creado.' },
  },
  customer_updated: {
    en: { title: 'Customer updated', content: 'The customer was updated.' },
    es: { title: 'Cliente actualizado', content: 'El cliente fue actualizado.' },
  },
  customer_deleted: {
    en: { title: 'Customer deleted', content: 'The customer was deleted.' },
    es: { title: 'Cliente eliminado', content: 'El cliente fue eliminado.' },
  },
  customer_photo_updated: {
    en: { title: 'Photo updated', content: 'The customer photo was updated.' },
    es: { title: 'Foto actualizada', content: 'La foto del cliente fue actualizada.' },
  },
  customer_not_found: {
    en: { title: 'Customer not found', content: 'The customer could not be found.' },
    es: { title: 'Cliente no encontrado', content: 'No se pudo encontrar el cliente.' },
  },
  customer_email_taken: {
    en: {
      title: 'E-mail in use',
      content: 'Another customer of this account already has the e-mail {email}.',
    },
    es: { title: 'Correo en uso', content: 'Otro cliente de esta cuenta ya tiene el correo {email}.' },
  },
  customer_search_empty: {
    en: { title: 'Empty search', content: 'The search query cannot be empty.' },
    es: { title: 'Búsqueda vacía', content: 'La búsqueda no puede estar vacía.' },
  },
  customer_search_no_match: {
    type: 'warning',
    wrapped: true,
    en: { title: 'No customers found', content: 'No customer matches the search query.' },
    es: { title: 'No se encontraron clientes', content: 'Ningún cliente coincide con la búsqueda.' },
  },
  customer_address_limit: {
    en: { title: 'Address limit reached', content: 'The customer already has 3 addresses.' },
    es: { title: 'Límite de direcciones', content: 'El cliente ya tiene 3 direcciones.' },
  },
  address_added: {
    en: { title: 'Address added', content: 'The address was added to the customer.' },
    es: { title: 'Dirección agregada', content: 'La dirección fue agregada al cliente.' },
  },
  address_deleted: {
    en: { title: 'Address deleted', content: 'The address was deleted.' },
    es: { title: 'Dirección eliminada', content: 'La dirección fue eliminada.' },
  },
  address_not_found: {
    en: { title: 'Address not found', content: 'The customer has no address with this id.' },
    es: { title: 'Dirección no encontrada', content: 'El cliente no tiene una dirección con este id.' },
  },
});
