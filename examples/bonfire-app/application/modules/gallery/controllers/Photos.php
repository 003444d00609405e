<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Photos: the versioned JSON endpoints api/v<n>/photos (Route::resources
 * with offset 1, so $id is the photo id and the version is not passed).
 */
class Photos extends MX_Controller
{
    public function __construct()
    {
        parent::__construct();
        $this->load->model('photo_model');
        $this->output->set_content_type('application/json');
    }

    public function index()
    {
        $this->output->set_output(json_encode($this->photo_model->find_all()));
    }

    public function create_new()
    {
        // The fields a client must send to create a photo.
        $this->output->set_output(json_encode($this->photo_model->field_list()));
    }

    public function create()
    {
        $id = $this->photo_model->insert($this->input->post());
        $this->output->set_status_header(201)->set_output(json_encode(array('id' => $id)));
    }

    public function show($id)
    {
        $this->output->set_output(json_encode($this->photo_model->find((int) $id)));
    }

    public function edit($id)
    {
        // The editable fields of one photo, with their current values.
        $this->output->set_output(json_encode($this->photo_model->editable((int) $id)));
    }

    public function update($id)
    {
        $this->photo_model->update((int) $id, $this->input->input_stream());
        $this->output->set_status_header(204);
    }

    public function delete($id)
    {
        $this->photo_model->delete((int) $id);
        $this->output->set_status_header(204);
    }
}
